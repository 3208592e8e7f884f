import type { AlertRecord, AlertStatus } from '../../evaluation/alert-record.js';

/** What a receiver renders: one alert in Alertmanager's vocabulary. */
export interface AlertPayload {
  readonly fingerprint: string;
  readonly status: AlertStatus;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly startsAt: string;
  /** Set on resolved alerts; firing alerts get theirs at send time where the API needs one. */
  readonly endsAt?: string;
  readonly generatorURL?: string;
  /** The label set this alert had before a severity change: receivers keyed by labels resolve it. */
  readonly previousLabels?: Readonly<Record<string, string>>;
  /** The annotations the alert had under previousLabels (absent in notifications queued before they were kept). */
  readonly previousAnnotations?: Readonly<Record<string, string>>;
}

export function payloadOf(alert: AlertRecord, status: AlertStatus, nowMs: number, externalUrl?: string): AlertPayload {
  return {
    fingerprint: alert.fingerprint,
    status,
    labels: alert.labels,
    annotations: { ...alert.annotations },
    startsAt: new Date(alert.activeSinceMs).toISOString(),
    endsAt: status === 'resolved' ? new Date(nowMs).toISOString() : undefined,
    generatorURL: generatorUrl(externalUrl, alert.labels),
  };
}

/** Links to the alert's target on avaxmon's status page (or to the page, for alerts without a target). */
export function generatorUrl(externalUrl: string | undefined, labels: Readonly<Record<string, string>>): string | undefined {
  if (!externalUrl) return undefined;
  const base = externalUrl.replace(/\/+$/, '');
  if (!labels.target) return `${base}/#alerts`;
  // ?target= shows the target's row and collectors however large the fleet (the page folds healthy rows).
  const target = encodeURIComponent(labels.target);
  return `${base}/?target=${target}#target-${target}`;
}
