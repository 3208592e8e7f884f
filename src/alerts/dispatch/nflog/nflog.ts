import { join } from 'node:path';
import type { Logger } from 'pino';
import { readStateFile, writeFileDurably } from '../../state/durable-file.js';
import type { WriteFailures } from '../../state/write-failures.js';

/** What a group's last notification listed, by Alertmanager fingerprint (of the label sets). */
export interface NotifiedGroup {
  readonly firing: ReadonlySet<string>;
  readonly resolved: ReadonlySet<string>;
  /**
   * Firing alerts of notifications that failed since: the receiver may have been paged all the same
   * (a timeout after it took the request), so their resolves still go out. avaxmon's own addition.
   */
  readonly tried?: ReadonlySet<string>;
  readonly atMs: number;
}

/** Alertmanager keeps notification log entries this long (--data.retention, 120h). */
const RETENTION_MS = 120 * 3_600_000;

interface StoredEntry {
  readonly group: string;
  readonly firing: string[];
  readonly resolved: string[];
  readonly tried?: string[];
  readonly atMs: number;
}

/**
 * The notification log (Alertmanager's nflog/): per receiver and group, what its last notification
 * said was firing and resolved. Delivery asks it whether a group has news; it is kept in
 * `<state_dir>/nflog.json`, written durably after every notification, so a restart neither repeats
 * a notification nor forgets that a group was notified (its resolve still goes out).
 */
export class NotificationLog {
  private readonly entries = new Map<string, NotifiedGroup>();
  private readonly file: string;

  constructor(
    stateDir: string,
    private readonly log: Logger,
    private readonly failures: WriteFailures,
    nowMs: number,
  ) {
    this.file = join(stateDir, 'nflog.json');
    this.load(nowMs);
  }

  get(group: string): NotifiedGroup | undefined {
    return this.entries.get(group);
  }

  set(group: string, entry: NotifiedGroup, nowMs = entry.atMs): void {
    this.entries.set(group, entry);
    this.save(nowMs);
  }

  /** A notification of the group failed: its firing alerts count as maybe seen. */
  tried(group: string, firing: Iterable<string>, nowMs: number): void {
    const last = this.entries.get(group);
    const tried = new Set([...(last?.tried ?? []), ...firing]);
    if (last?.tried && tried.size === last.tried.size) return;
    this.set(group, { firing: last?.firing ?? new Set(), resolved: last?.resolved ?? new Set(), tried, atMs: last?.atMs ?? nowMs }, nowMs);
  }

  /** The group ended (nothing fires after a notification of its resolves): the next alert begins a new one. */
  delete(group: string, nowMs: number): void {
    if (this.entries.delete(group)) this.save(nowMs);
  }

  private save(nowMs: number): void {
    for (const [group, entry] of this.entries) if (nowMs - entry.atMs > RETENTION_MS) this.entries.delete(group);
    const stored: StoredEntry[] = [...this.entries].map(([group, entry]) => ({
      group,
      firing: [...entry.firing],
      resolved: [...entry.resolved],
      tried: entry.tried && [...entry.tried],
      atMs: entry.atMs,
    }));
    try {
      writeFileDurably(this.file, JSON.stringify(stored));
      this.failures.succeeded('nflog');
    } catch (error) {
      // Kept in memory: only a restart before the next successful write would forget it.
      this.failures.failed('nflog', error);
    }
  }

  private load(nowMs: number): void {
    const text = readStateFile(this.file);
    if (text === undefined) return;
    try {
      for (const entry of JSON.parse(text) as StoredEntry[])
        if (nowMs - entry.atMs <= RETENTION_MS)
          this.entries.set(entry.group, {
            firing: new Set(entry.firing),
            resolved: new Set(entry.resolved),
            tried: entry.tried && new Set(entry.tried),
            atMs: entry.atMs,
          });
    } catch (error) {
      this.log.error({ file: this.file, err: error }, 'Notification log unreadable; starting with none');
    }
  }
}
