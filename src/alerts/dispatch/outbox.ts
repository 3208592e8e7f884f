import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AlertPayload } from './notify/payload.js';
import { systemClock, type Clock, type Timer } from '../../schedule/clock.js';
import { LabelledCounter } from '../../metrics/labelled-counter.js';
import { fsyncDirectory, writeBatchDurably, writeFileDurably } from '../state/durable-file.js';
import { WriteFailures } from '../state/write-failures.js';

/** A notification for one receiver, as the dispatcher produces it. */
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
/** Removals within this window share one fsync of the journal and the directory. */
const REMOVAL_SYNC_DELAY_MS = 100;
/** The default of alerts.max_queued_notifications. */
export const DEFAULT_MAX_QUEUED = 10_000;

/**
 * The durable outbox: one file per queued notification in `<state_dir>/outbox`, written with
 * write + fsync + rename, removed once the notification is done. After kill -9, whatever was queued
 * is still there; a notification queued twice (same receiver and key) is stored once. A journal of
 * delivered keys (`delivered.jsonl`) stops a notification re-queued after a crash from going out again.
 *
 * Sized for a storm: notifications are kept in lanes (one per receiver and alert, in order), so the
 * sender finds the next one without sorting the queue; one enqueue batch costs one directory fsync;
 * removals share an fsync per REMOVAL_SYNC_DELAY_MS (a crash in between re-sends, with the same
 * idempotency key); and past max_queued the oldest notifications are dropped, counted and logged.
 */
export class Outbox {
  readonly dropped = new LabelledCounter('avaxmon_notifications_dropped_total', ['receiver', 'reason']);
  private readonly directory: string;
  /** In queue (seq) order: enqueue appends, and load sorts once. */
  private readonly queued = new Map<string, QueuedNotification>();
  private readonly lanes = new Map<string, QueuedNotification[]>();
  private syncTimer?: Timer;
  private droppingSinceLog = 0;
  private readonly delivered = new Map<string, number>();
  private readonly journal: string;
  private journalLines = 0;
  private lastSeq = 0;

  constructor(
    stateDir: string,
    private readonly log: Logger,
    readonly failures = new WriteFailures(log),
    private readonly maxQueued = DEFAULT_MAX_QUEUED,
    private readonly clock: Clock = systemClock,
  ) {
    this.directory = join(stateDir, 'outbox');
    this.journal = join(stateDir, 'delivered.jsonl');
    mkdirSync(this.directory, { recursive: true });
    this.load();
    this.loadJournal();
  }

  enqueue(notifications: readonly NewNotification[], nowMs = this.clock.now()): QueuedNotification[] {
    const added: QueuedNotification[] = [];
    for (const notification of notifications) {
      const id = idOf(notification.receiver, notification.key);
      if (this.queued.has(id) || this.delivered.has(id)) continue;
      if (notification.reminder && this.lanes.has(laneOf(notification))) continue;
      this.lastSeq = Math.max(this.lastSeq + 1, nowMs * 1000);
      added.push({ ...notification, seq: this.lastSeq, createdMs: nowMs });
    }
    this.persist(added);
    for (const entry of added) this.track(entry);
    this.dropOverflow();
    return added.filter((entry) => this.has(entry));
  }

  has(entry: QueuedNotification): boolean {
    return this.queued.get(idOf(entry.receiver, entry.key)) === entry;
  }

  /**
   * The first notification of every lane, oldest lane first (lanes keep the order they were opened
   * in), so a storm's retries never re-sort the queue.
   */
  heads(): QueuedNotification[] {
    return [...this.lanes.values()].map((lane) => lane[0]);
  }

  /** The queued notifications of the entry's receiver and alert, in order. */
  lane(entry: NewNotification): readonly QueuedNotification[] {
    return this.lanes.get(laneOf(entry)) ?? [];
  }

  /**
   * Removes a notification that was delivered, rejected or expired. A delivered first notice or
   * resolve is journaled first; reminders are not, since a repeated reminder is harmless.
   */
  remove(entry: QueuedNotification, delivered: boolean, nowMs = this.clock.now()): void {
    const id = idOf(entry.receiver, entry.key);
    if (this.queued.get(id) !== entry) return;
    this.untrack(entry, id);
    try {
      if (delivered && !entry.reminder) this.journalDelivered(id, nowMs);
      rmSync(join(this.directory, fileName(entry.seq, id)), { force: true });
      this.scheduleSync();
      this.failures.succeeded('journal');
    } catch (error) {
      // Worst case after a restart: the notification goes out again, with the same idempotency key.
      this.failures.failed('journal', error);
    }
  }

  /** Makes pending removals durable now (a stopping daemon calls it). */
  flush(): void {
    this.clock.clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    try {
      fsyncFile(this.journal);
      fsyncDirectory(this.directory);
    } catch (error) {
      this.failures.failed('journal', error);
    }
  }

  private scheduleSync(): void {
    if (this.syncTimer) return;
    this.syncTimer = this.clock.setTimeout(() => this.flush(), REMOVAL_SYNC_DELAY_MS);
    this.syncTimer.unref();
  }

  private track(entry: QueuedNotification): void {
    this.queued.set(idOf(entry.receiver, entry.key), entry);
    const key = laneOf(entry);
    const lane = this.lanes.get(key);
    if (lane) lane.push(entry);
    else this.lanes.set(key, [entry]);
  }

  private untrack(entry: QueuedNotification, id: string): void {
    this.queued.delete(id);
    const key = laneOf(entry);
    const lane = this.lanes.get(key);
    if (!lane) return;
    const index = lane.indexOf(entry);
    if (index >= 0) lane.splice(index, 1);
    if (lane.length === 0) this.lanes.delete(key);
  }

  /**
   * Past max_queued the oldest notifications go, as Alertmanager drops the oldest alerts past its
   * limit: a receiver down for days must not fill the disk, and the newest state is the one worth sending.
   */
  private dropOverflow(): void {
    let dropped = 0;
    for (const entry of this.queued.values()) {
      if (this.queued.size <= this.maxQueued) break;
      this.remove(entry, false);
      this.dropped.add({ receiver: entry.receiver, reason: 'outbox_full' });
      dropped += 1;
    }
    if (dropped === 0) {
      this.droppingSinceLog = 0;
      return;
    }
    if (this.droppingSinceLog === 0)
      this.log.error({ maxQueued: this.maxQueued, dropped }, 'Outbox full; dropping the oldest notifications');
    this.droppingSinceLog += dropped;
  }

  /**
   * A notification that cannot be written (a full disk) stays queued in memory: it is still sent,
   * it is only not durable across a restart. Alert evaluation goes on either way.
   */
  private persist(entries: readonly QueuedNotification[]): void {
    if (entries.length === 0) return;
    try {
      if (entries.length === 1) {
        writeFileDurably(
          join(this.directory, fileName(entries[0].seq, idOf(entries[0].receiver, entries[0].key))),
          JSON.stringify(entries[0]),
        );
      } else {
        writeBatchDurably(
          this.directory,
          entries.map((entry) => [fileName(entry.seq, idOf(entry.receiver, entry.key)), JSON.stringify(entry)]),
        );
      }
      this.failures.succeeded('outbox');
    } catch (error) {
      this.failures.failed('outbox', error);
    }
  }

  /** Queued notifications in queue order. */
  entries(): QueuedNotification[] {
    return [...this.queued.values()];
  }

  get depth(): number {
    return this.queued.size;
  }

  /** The first queued is the oldest: seq follows creation time. */
  oldestCreatedMs(): number | undefined {
    return this.queued.values().next().value?.createdMs;
  }

  /** Records a delivered key; forgets keys past DELIVERED_MEMORY_MS, and compacts the journal when it is mostly dead lines. */
  private journalDelivered(id: string, nowMs: number): void {
    appendFileSync(this.journal, `${JSON.stringify({ id, atMs: nowMs })}\n`);
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

  private load(): void {
    const restored: QueuedNotification[] = [];
    for (const name of readdirSync(this.directory)) {
      const path = join(this.directory, name);
      // A .tmp file is a write that crashed before its rename: the notification was never queued.
      if (!name.endsWith('.json')) {
        rmSync(path, { force: true });
        continue;
      }
      try {
        const entry = JSON.parse(readFileSync(path, 'utf8')) as QueuedNotification;
        restored.push(entry);
        this.lastSeq = Math.max(this.lastSeq, entry.seq);
      } catch (error) {
        this.log.error({ file: name, err: error }, 'Unreadable outbox entry; removing it');
        rmSync(path, { force: true });
      }
    }
    for (const entry of restored.sort((a, b) => a.seq - b.seq)) this.track(entry);
    if (this.queued.size > 0) this.log.info({ queued: this.queued.size }, 'Outbox restored from disk');
  }

  /** Reads the delivered keys still worth remembering and compacts the journal to them. */
  private loadJournal(nowMs = this.clock.now()): void {
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
      if (!entry) continue;
      rmSync(join(this.directory, fileName(entry.seq, id)), { force: true });
      this.untrack(entry, id);
    }
    this.writeJournal();
  }
}

function fsyncFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function laneOf(notification: NewNotification): string {
  return `${notification.receiver}\n${notification.fingerprint}`;
}

function idOf(receiver: string, key: string): string {
  return createHash('sha256').update(`${receiver}\n${key}`).digest('hex').slice(0, 24);
}

function fileName(seq: number, id: string): string {
  return `${String(seq).padStart(20, '0')}-${id}.json`;
}
