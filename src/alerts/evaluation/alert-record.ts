import { createHash } from 'node:crypto';

export type AlertStatus = 'firing' | 'resolved';

/**
 * An alert's persisted state. Its identity is rule, target and the rule's own labels: `severity` is a
 * label too, but a tiered rule changing severity is the same alert, so it is left out of the fingerprint.
 */
export interface AlertRecord {
  /** What receivers know the alert by (PagerDuty dedup_key, webhook fingerprint); fixed for its life. */
  readonly fingerprint: string;
  readonly rule: string;
  /** Updated when a tiered rule changes the alert's severity. */
  labels: Readonly<Record<string, string>>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  /** When the condition began to hold; sent as startsAt and part of the idempotency keys. */
  readonly activeSinceMs: number;
  firingSinceMs?: number;
  /** Receivers sent the firing notification, with the time of the last send (for reminders). */
  notified: Record<string, number>;
  /** Firing notifications after the first (reminders, severity changes); numbers their idempotency keys. */
  reminders: number;
  /** Since when the rule's data for the target is missing (a failed collection): unknown, so not yet resolved. */
  unknownSinceMs?: number;
  /** A change receivers have not been told yet because the alert is flapping; sent once it settles. */
  held?: AlertStatus;
  /** The data is missing while a collector of the target fails: the alert keeps its last state, marked stale. */
  stale?: boolean;
  /** Why a firing alert is not notified now: the inhibiting alert or the silence. */
  muted?: string;
}

/** An alert that is flapping: its notice went out, and later changes wait until none came for flap_settle. */
export interface FlapState {
  readonly sinceMs: number;
  lastChangeMs: number;
}

/** What survives a restart: the open alerts, and each alert's recent notification times for the flap cap. */
export interface EngineState {
  readonly alerts: readonly AlertRecord[];
  readonly transitions: Readonly<Record<string, readonly number[]>>;
  /** Absent in state written before flap settling existed. */
  readonly flapping?: Readonly<Record<string, FlapState>>;
}

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

/** A stable hash of the alert's identifying labels (all but severity), independent of key order. */
export function fingerprintOf(labels: Readonly<Record<string, string>>): string {
  const canonical = JSON.stringify(
    Object.keys(labels)
      .filter((key) => key !== 'severity')
      .sort()
      .map((key) => [key, labels[key]]),
  );
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
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
