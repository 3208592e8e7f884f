import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AlertPayload } from './alert.js';
import { fsyncDirectory, writeFileDurably } from './durable-file.js';
import { WriteFailures } from './write-failures.js';

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

/** How long the journal of delivered notifications remembers a key. */
const DELIVERED_MEMORY_MS = 24 * 3_600_000;
/** The journal is rewritten once it holds more than twice the live keys (and at least this many lines). */
const MIN_JOURNAL_LINES_TO_COMPACT = 64;

/**
 * The durable outbox: one file per queued notification in `<state_dir>/outbox`, written with
 * write + fsync + rename, removed once the notification is done. After kill -9, whatever was queued
 * is still there; a notification queued twice (same receiver and key) is stored once. A journal of
 * delivered keys (`delivered.jsonl`) stops a notification re-queued after a crash from going out again.
 */
export class Outbox {
  private readonly directory: string;
  private readonly queued = new Map<string, QueuedNotification>();
  private readonly delivered = new Map<string, number>();
  private readonly journal: string;
  private journalLines = 0;
  private lastSeq = 0;

  constructor(
    stateDir: string,
    private readonly log: Logger,
    readonly failures = new WriteFailures(log),
  ) {
    this.directory = join(stateDir, 'outbox');
    this.journal = join(stateDir, 'delivered.jsonl');
    mkdirSync(this.directory, { recursive: true });
    this.load();
    this.loadJournal();
  }

  enqueue(notifications: readonly NewNotification[], nowMs = Date.now()): QueuedNotification[] {
    const added: QueuedNotification[] = [];
    for (const notification of notifications) {
      const id = idOf(notification.receiver, notification.key);
      if (this.queued.has(id) || this.delivered.has(id)) continue;
      if (notification.reminder && this.hasQueued(notification.receiver, notification.fingerprint)) continue;
      this.lastSeq = Math.max(this.lastSeq + 1, nowMs * 1000);
      const entry: QueuedNotification = { ...notification, seq: this.lastSeq, createdMs: nowMs };
      this.persist(entry, id);
      this.queued.set(id, entry);
      added.push(entry);
    }
    return added;
  }

  /**
   * Removes a notification that was delivered, rejected or expired. A delivered first notice or
   * resolve is journaled first; reminders are not, since a repeated reminder is harmless.
   */
  remove(entry: QueuedNotification, delivered: boolean, nowMs = Date.now()): void {
    const id = idOf(entry.receiver, entry.key);
    this.queued.delete(id);
    try {
      if (delivered && !entry.reminder) this.journalDelivered(id, nowMs);
      rmSync(join(this.directory, fileName(entry.seq, id)), { force: true });
      fsyncDirectory(this.directory);
      this.failures.succeeded('journal');
    } catch (error) {
      // Worst case after a restart: the notification goes out again, with the same idempotency key.
      this.failures.failed('journal', error);
    }
  }

  /**
   * A notification that cannot be written (a full disk) stays queued in memory: it is still sent,
   * it is only not durable across a restart. Alert evaluation goes on either way.
   */
  private persist(entry: QueuedNotification, id: string): void {
    try {
      writeFileDurably(join(this.directory, fileName(entry.seq, id)), JSON.stringify(entry));
      this.failures.succeeded('outbox');
    } catch (error) {
      this.failures.failed('outbox', error);
    }
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

  /** Records a delivered key; forgets keys past DELIVERED_MEMORY_MS, and compacts the journal when it is mostly dead lines. */
  private journalDelivered(id: string, nowMs: number): void {
    appendDurably(this.journal, `${JSON.stringify({ id, atMs: nowMs })}\n`);
    this.journalLines += 1;
    this.delivered.delete(id);
    this.delivered.set(id, nowMs);
    // Insertion order is delivery order, so the expired keys are at the front.
    for (const [oldId, atMs] of this.delivered) {
      if (nowMs - atMs < DELIVERED_MEMORY_MS) break;
      this.delivered.delete(oldId);
    }
    if (this.journalLines > 2 * Math.max(this.delivered.size, MIN_JOURNAL_LINES_TO_COMPACT / 2)) this.writeJournal();
  }

  private writeJournal(): void {
    const lines = [...this.delivered].map(([id, atMs]) => JSON.stringify({ id, atMs })).join('\n');
    writeFileDurably(this.journal, lines === '' ? '' : `${lines}\n`);
    this.journalLines = this.delivered.size;
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
        this.log.error({ file: name, err: error }, 'Unreadable outbox entry; removing it');
        rmSync(path, { force: true });
      }
    }
    if (this.queued.size > 0) this.log.info({ queued: this.queued.size }, 'Outbox restored from disk');
  }

  /** Reads the delivered keys still worth remembering and compacts the journal to them. */
  private loadJournal(nowMs = Date.now()): void {
    let text = '';
    try {
      text = readFileSync(this.journal, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      try {
        const { id, atMs } = JSON.parse(line) as { id: string; atMs: number };
        if (nowMs - atMs < DELIVERED_MEMORY_MS) this.delivered.set(id, atMs);
      } catch {
        // A torn last line from a crash mid-append: that delivery is simply not remembered.
      }
    }
    // Delivered, but the crash came before its file was removed.
    for (const id of this.delivered.keys()) {
      const entry = this.queued.get(id);
      if (entry) rmSync(join(this.directory, fileName(entry.seq, id)), { force: true });
      this.queued.delete(id);
    }
    this.writeJournal();
  }
}

function appendDurably(file: string, line: string): void {
  appendFileSync(file, line);
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function idOf(receiver: string, key: string): string {
  return createHash('sha256').update(`${receiver}\n${key}`).digest('hex').slice(0, 24);
}

function fileName(seq: number, id: string): string {
  return `${String(seq).padStart(20, '0')}-${id}.json`;
}
