import { createHash } from 'node:crypto';

export type AlertStatus = 'firing' | 'resolved';

/** An alert's persisted state; identity is the fingerprint of its labels (rule, target, own labels). */
export interface AlertRecord {
  readonly fingerprint: string;
  readonly rule: string;
  readonly labels: Readonly<Record<string, string>>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  /** When the condition began to hold; sent as startsAt and part of the idempotency keys. */
  readonly activeSinceMs: number;
  firingSinceMs?: number;
  /** Receivers sent the firing notification, with the time of the last send (for reminders). */
  notified: Record<string, number>;
  /** Reminders sent so far; numbers the reminders' idempotency keys. */
  reminders: number;
  /** Since when the rule's data for the target is missing (a failed collection): unknown, so not yet resolved. */
  unknownSinceMs?: number;
  /** The condition no longer holds, but the resolve waits for the flap cap to allow it. */
  resolveHeld?: boolean;
}

/** What survives a restart: the open alerts, and each alert's recent notification times for the flap cap. */
export interface EngineState {
  readonly alerts: readonly AlertRecord[];
  readonly transitions: Readonly<Record<string, readonly number[]>>;
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
}

/** A stable hash of the label set, independent of key order. */
export function fingerprintOf(labels: Readonly<Record<string, string>>): string {
  const canonical = JSON.stringify(Object.keys(labels).sort().map((key) => [key, labels[key]]));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

export function payloadOf(alert: AlertRecord, status: AlertStatus, nowMs: number, generatorURL?: string): AlertPayload {
  return {
    fingerprint: alert.fingerprint,
    status,
    labels: alert.labels,
    annotations: { ...alert.annotations },
    startsAt: new Date(alert.activeSinceMs).toISOString(),
    endsAt: status === 'resolved' ? new Date(nowMs).toISOString() : undefined,
    generatorURL,
  };
}
