import { createHash } from 'node:crypto';

export type AlertStatus = 'firing' | 'resolved';

/**
 * One open alert as evaluation keeps it, persisted across restarts. Its identity is rule, target and
 * the rule's own labels: `severity` is a label too, but a tiered rule changing severity is the same
 * alert, so it is left out of the fingerprint. Evaluation owns the alert's lifecycle and nothing
 * else: whom it was notified to, a change held back while it flaps and why it is muted are
 * dispatch's, kept in the notification log (dispatch/nflog/).
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
  /** Since when the rule's data for the target is missing (a failed collection): unknown, so not yet resolved. */
  unknownSinceMs?: number;
  /** The data is missing while a collector of the target fails: the alert keeps its last state, marked stale. */
  stale?: boolean;
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
