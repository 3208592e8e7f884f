import type { AlertRecord } from './alert-record.js';

/** The label set and annotations an alert had before a severity change: receivers resolve it. */
export interface PreviousAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * What one evaluation says of an alert of its scope, in the order it reached them:
 * - `firing`: the condition holds and the alert fires (after a severity change, with what it was);
 * - `kept`: the alert stands as it was, not judged again: its target is down, its data is unknown,
 *   its rule failed or is still relearning the history it needs;
 * - `ended`: the condition no longer holds.
 * An alert that is pending and stays pending is listed only when kept.
 */
export type AlertUpdate =
  | { readonly kind: 'firing'; readonly alert: AlertRecord; readonly previous?: PreviousAlert }
  | {
      readonly kind: 'kept';
      readonly alert: AlertRecord /** The condition was seen to hold (a frozen target's alert). */;
      readonly holds: boolean;
    }
  | { readonly kind: 'ended'; readonly alert: AlertRecord };

/** The open alerts as evaluation holds them: where dispatch looks for inhibiting alerts and a group's members. */
export interface OpenAlerts {
  all(): Iterable<AlertRecord>;
  ofTarget(target: string): Iterable<AlertRecord>;
  get(fingerprint: string): AlertRecord | undefined;
}

/**
 * Where evaluation's alerts go. Dispatch implements it; evaluation knows it by this shape only and
 * never imports dispatch. One evaluation is begin, take (once per scope), then commit; when commit
 * throws, rollback, and evaluation restores its alerts as they were before begin.
 */
export interface AlertConsumer {
  begin(nowMs: number): void;
  /** One scope's updates; returns the fingerprints of ended alerts to keep open (their resolve is held back). */
  take(updates: readonly AlertUpdate[], nowMs: number): ReadonlySet<string>;
  /** Makes what the evaluation caused durable; returns whether anything is to be sent. Throws when it cannot. */
  commit(nowMs: number): boolean;
  rollback(): void;
}
