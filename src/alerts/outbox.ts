import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AlertPayload } from './alert.js';
import { fsyncDirectory, writeFileDurably } from './durable-file.js';

/** A notification for one receiver, as the engine produces it. */
export interface NewNotification {
  readonly receiver: string;
  readonly fingerprint: string;
  /** Idempotency key: the same for every attempt, and for a re-queue after a crash. */
  readonly key: string;
  readonly reminder: boolean;
  readonly alert: AlertPayload;
}

/** A queued notification: on disk until delivered, expired or rejected. */
export interface QueuedNotification extends NewNotification {
  /** Orders the queue, also across restarts: notifications of one alert go out in this order. */
  readonly seq: number;
  readonly createdMs: number;
}

/**
 * The durable outbox: one file per queued notification in `<state_dir>/outbox`, written with
 * write + fsync + rename, removed once the notification is done. After kill -9, whatever was queued
 * is still there; a notification queued twice (same receiver and key) is stored once.
 */
export class Outbox {
  private readonly directory: string;
  private readonly queued = new Map<string, QueuedNotification>();
  private lastSeq = 0;

  constructor(stateDir: string, private readonly log: Logger) {
    this.directory = join(stateDir, 'outbox');
    mkdirSync(this.directory, { recursive: true });
    this.load();
  }

  enqueue(notifications: readonly NewNotification[], nowMs = Date.now()): QueuedNotification[] {
    const added: QueuedNotification[] = [];
    for (const notification of notifications) {
      const id = idOf(notification.receiver, notification.key);
      if (this.queued.has(id)) continue;
      if (notification.reminder && this.hasQueued(notification.receiver, notification.fingerprint)) continue;
      this.lastSeq = Math.max(this.lastSeq + 1, nowMs * 1000);
      const entry: QueuedNotification = { ...notification, seq: this.lastSeq, createdMs: nowMs };
      writeFileDurably(join(this.directory, fileName(entry.seq, id)), JSON.stringify(entry));
      this.queued.set(id, entry);
      added.push(entry);
    }
    return added;
  }

  /** Removes a notification that was delivered, rejected or expired. */
  remove(entry: QueuedNotification): void {
    const id = idOf(entry.receiver, entry.key);
    rmSync(join(this.directory, fileName(entry.seq, id)), { force: true });
    fsyncDirectory(this.directory);
    this.queued.delete(id);
  }

  /** Queued notifications in queue order. */
  entries(): QueuedNotification[] {
    return [...this.queued.values()].sort((a, b) => a.seq - b.seq);
  }

  get depth(): number {
    return this.queued.size;
  }

  oldestCreatedMs(): number | undefined {
    let oldest: number | undefined;
    for (const entry of this.queued.values()) oldest = oldest === undefined ? entry.createdMs : Math.min(oldest, entry.createdMs);
    return oldest;
  }

  /** A reminder is pointless while an earlier notification of the alert still waits for the receiver. */
  private hasQueued(receiver: string, fingerprint: string): boolean {
    for (const entry of this.queued.values()) if (entry.receiver === receiver && entry.fingerprint === fingerprint) return true;
    return false;
  }

  private load(): void {
    for (const name of readdirSync(this.directory)) {
      const path = join(this.directory, name);
      // A .tmp file is a write that crashed before its rename: the notification was never queued.
      if (!name.endsWith('.json')) {
        rmSync(path, { force: true });
        continue;
      }
      try {
        const entry = JSON.parse(readFileSync(path, 'utf8')) as QueuedNotification;
        this.queued.set(idOf(entry.receiver, entry.key), entry);
        this.lastSeq = Math.max(this.lastSeq, entry.seq);
      } catch (error) {
        this.log.error({ file: name, err: error }, 'Unreadable outbox entry; moving it aside');
        rmSync(path, { force: true });
      }
    }
    if (this.queued.size > 0) this.log.info({ queued: this.queued.size }, 'Outbox restored from disk');
  }
}

function idOf(receiver: string, key: string): string {
  return createHash('sha256').update(`${receiver}\n${key}`).digest('hex').slice(0, 24);
}

function fileName(seq: number, id: string): string {
  return `${String(seq).padStart(20, '0')}-${id}.json`;
}
