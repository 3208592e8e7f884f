import type { AlertStatus } from '../../evaluation/alert-record.js';

/** What dispatch told receivers of one open alert, and what it keeps from them, as persisted in the notification log. */
export interface AlertNotified {
  /** The receivers sent its firing notification, with the time of the last send (for reminders). */
  readonly receivers: Readonly<Record<string, number>>;
  /** Firing notifications after the first (reminders, severity changes); numbers their idempotency keys. */
  readonly reminders: number;
  /** A change receivers have not been told yet because the alert is flapping; sent once it settles. */
  readonly held?: AlertStatus;
  /** Why the firing alert is not notified now: the inhibiting alert or the silences. */
  readonly muted?: string;
}

interface Entry {
  receivers: Record<string, number>;
  reminders: number;
  held?: AlertStatus;
  muted?: string;
}

/**
 * Per open alert (by its fingerprint), whom dispatch told that it fires and when, how many firing
 * notifications followed the first, and what receivers are not told (a change flap damping holds
 * back, the muting that keeps it from them): the notification log's alert half, beside its groups.
 * Kept across restarts, so a restart neither sends a held change early nor shows a muted alert to
 * a group before its first evaluation. Changes made while an evaluation is under way are journaled,
 * so a failed evaluation puts them back.
 */
export class NotifiedAlerts {
  private readonly entries = new Map<string, Entry>();
  /** Each entry the evaluation under way changed, as it was before (undefined: it did not exist). */
  private journal?: Map<string, Entry | undefined>;
  /** Something changed since the log was last written. */
  dirty = false;

  /** The receivers told the alert fires, in the order they were told. */
  receivers(fingerprint: string): string[] {
    return Object.keys(this.entries.get(fingerprint)?.receivers ?? {});
  }

  /** When the receiver was last sent the alert as firing; undefined if it was not told it fires. */
  notifiedAt(fingerprint: string, receiver: string): number | undefined {
    return this.entries.get(fingerprint)?.receivers[receiver];
  }

  reminders(fingerprint: string): number {
    return this.entries.get(fingerprint)?.reminders ?? 0;
  }

  held(fingerprint: string): AlertStatus | undefined {
    return this.entries.get(fingerprint)?.held;
  }

  /** Flap damping holds back the alert's change to `status`; undefined: nothing is held. */
  hold(fingerprint: string, status: AlertStatus | undefined): void {
    if (this.held(fingerprint) !== status) this.change(fingerprint).held = status;
  }

  muted(fingerprint: string): string | undefined {
    return this.entries.get(fingerprint)?.muted;
  }

  /** Why the firing alert is muted now; undefined: it is not. */
  mute(fingerprint: string, reason: string | undefined): void {
    if (this.muted(fingerprint) !== reason) this.change(fingerprint).muted = reason;
  }

  told(fingerprint: string, receiver: string, atMs: number): void {
    this.change(fingerprint).receivers[receiver] = atMs;
  }

  /** The receiver was told the alert ended (while it is muted): it hears of it again as new. */
  untold(fingerprint: string, receiver: string): void {
    if (this.notifiedAt(fingerprint, receiver) !== undefined) delete this.change(fingerprint).receivers[receiver];
  }

  /** Counts one more firing notification after the first; returns its number. */
  nextReminder(fingerprint: string): number {
    return ++this.change(fingerprint).reminders;
  }

  /** The alert closed: nothing is owed to anyone about it. */
  forget(fingerprint: string): void {
    if (!this.entries.has(fingerprint)) return;
    this.touch(fingerprint);
    this.entries.delete(fingerprint);
  }

  /** Keeps only the entries of these alerts (the open ones at a start). */
  retain(open: ReadonlySet<string>): void {
    for (const fingerprint of [...this.entries.keys()]) if (!open.has(fingerprint)) this.forget(fingerprint);
  }

  has(fingerprint: string): boolean {
    return this.entries.has(fingerprint);
  }

  /** Sets an entry as loaded from disk (or from a state_dir written by an older version). */
  restore(fingerprint: string, entry: AlertNotified): void {
    if (Object.keys(entry.receivers).length === 0 && entry.reminders === 0 && !entry.held && !entry.muted) return;
    this.touch(fingerprint);
    this.entries.set(fingerprint, copyOf(entry));
  }

  snapshot(): Record<string, AlertNotified> {
    return Object.fromEntries(this.entries);
  }

  begin(): void {
    this.journal = new Map();
  }

  commit(): void {
    this.journal = undefined;
  }

  /** Puts back every entry the evaluation since begin() changed. */
  rollback(): void {
    for (const [fingerprint, before] of this.journal ?? []) {
      if (before === undefined) this.entries.delete(fingerprint);
      else this.entries.set(fingerprint, before);
    }
    this.journal = undefined;
  }

  private change(fingerprint: string): Entry {
    this.touch(fingerprint);
    let entry = this.entries.get(fingerprint);
    if (!entry) this.entries.set(fingerprint, (entry = { receivers: {}, reminders: 0 }));
    return entry;
  }

  /** Records an entry as it is before its first change in the evaluation under way. */
  private touch(fingerprint: string): void {
    this.dirty = true;
    if (!this.journal || this.journal.has(fingerprint)) return;
    const entry = this.entries.get(fingerprint);
    this.journal.set(fingerprint, entry && copyOf(entry));
  }
}

function copyOf({ receivers, reminders, held, muted }: AlertNotified): Entry {
  return { receivers: { ...receivers }, reminders, ...(held && { held }), ...(muted && { muted }) };
}
