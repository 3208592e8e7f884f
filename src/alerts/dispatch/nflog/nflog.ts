import { join } from 'node:path';
import type { Logger } from 'pino';
import { readStateFile } from '../../state/durable-file.js';
import type { OrderedStateWrites } from '../../state/state-writes.js';
import type { SavedFlapState } from '../flap/flap-damper.js';
import { type AlertNotified, NotifiedAlerts } from './notified-alerts.js';

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
const LOG_VERSION = 2;
const NO_FLAP: SavedFlapState = { transitions: {}, flapping: {} };

interface StoredEntry {
  readonly group: string;
  readonly firing: string[];
  readonly resolved: string[];
  readonly tried?: string[];
  readonly atMs: number;
}

/** `nflog.json` since version 2; version 1 was the array of group entries alone. */
interface StoredLog {
  readonly version: number;
  readonly groups: StoredEntry[];
  readonly alerts: Record<string, AlertNotified>;
  readonly flap: SavedFlapState;
}

/**
 * What an older state_dir kept in `alerts.json` instead: before version 2 of the log, what was
 * notified and the flap damper's memory; until dispatch's verdicts moved here, each alert's flap
 * hold and muting (on the alert itself).
 */
export interface HandedOverState extends Partial<SavedFlapState> {
  readonly alerts: Readonly<Record<string, Partial<AlertNotified>>>;
}

/**
 * The notification log (Alertmanager's nflog/), the one place that says what was notified: per
 * receiver and group, what its last notification said was firing and resolved (delivery asks it
 * whether a group has news); per open alert, which receivers were told it fires, when, and how many
 * reminders followed (dispatch decides reminders and resolves from it); and the flap damper's
 * memory of recent notifications. It is kept in `<state_dir>/nflog.json`, written durably after
 * every notification and every evaluation that changed it (after `alerts.json`, see
 * OrderedStateWrites), so a restart neither repeats a notification nor forgets that an alert or a
 * group was notified (its resolve still goes out).
 */
export class NotificationLog {
  private readonly groups = new Map<string, NotifiedGroup>();
  readonly alerts = new NotifiedAlerts();
  /** The flap damper's memory as of the last evaluation that changed it (at a start, as last written). */
  flap: SavedFlapState;
  readonly file: string;
  /** The time of the latest change, which entries past their retention are dropped at. */
  private latestMs: number;
  /** Set once the plane's writes exist: they take this log's content when they write it. */
  writes?: Pick<OrderedStateWrites, 'now' | 'soon'>;

  constructor(
    stateDir: string,
    private readonly log: Logger,
    nowMs: number,
  ) {
    this.file = join(stateDir, 'nflog.json');
    this.latestMs = nowMs;
    this.flap = this.load(nowMs);
    this.alerts.dirty = false;
  }

  /**
   * Takes over what an older state_dir kept in `alerts.json`. Whom an alert was notified to: what
   * the log itself says wins. The verdicts: `alerts.json` wins, since only a version that kept them
   * there wrote them, and the log of that version has none. Written at once, before `alerts.json`
   * is rewritten without them.
   */
  adopt(legacy: HandedOverState, nowMs: number): void {
    for (const [fingerprint, { receivers = {}, reminders = 0, held, muted }] of Object.entries(legacy.alerts)) {
      if (!this.alerts.has(fingerprint)) this.alerts.restore(fingerprint, { receivers, reminders });
      this.alerts.hold(fingerprint, held);
      this.alerts.mute(fingerprint, muted);
    }
    const flapKnown = Object.keys(this.flap.transitions).length + Object.keys(this.flap.flapping ?? {}).length > 0;
    if (!flapKnown && legacy.transitions) this.flap = { transitions: legacy.transitions, flapping: legacy.flapping };
    this.save(nowMs);
  }

  get(group: string): NotifiedGroup | undefined {
    return this.groups.get(group);
  }

  set(group: string, entry: NotifiedGroup, nowMs = entry.atMs): void {
    this.groups.set(group, entry);
    this.save(nowMs);
  }

  /** A notification of the group failed: its firing alerts count as maybe seen. */
  tried(group: string, firing: Iterable<string>, nowMs: number): void {
    const last = this.groups.get(group);
    const tried = new Set([...(last?.tried ?? []), ...firing]);
    if (last?.tried && tried.size === last.tried.size) return;
    this.set(group, { firing: last?.firing ?? new Set(), resolved: last?.resolved ?? new Set(), tried, atMs: last?.atMs ?? nowMs }, nowMs);
  }

  /** The group ended (nothing fires after a notification of its resolves): the next alert begins a new one. */
  delete(group: string, nowMs: number): void {
    if (this.groups.delete(group)) this.save(nowMs);
  }

  /** Writes the log now (after the alert state, if that changed too); a failed write is kept in memory and tried again. */
  save(nowMs: number): void {
    this.changed(nowMs);
    this.writes?.now('nflog');
  }

  /** Writes the log in the background: a change a restart may find missing (evaluation's notes, see dispatcher.persist). */
  saveSoon(nowMs: number): void {
    this.changed(nowMs);
    this.writes?.soon('nflog');
  }

  /** The file's content now; entries past their retention are dropped first. */
  content(): string {
    for (const [group, entry] of this.groups) if (this.latestMs - entry.atMs > RETENTION_MS) this.groups.delete(group);
    const stored: StoredLog = {
      version: LOG_VERSION,
      groups: [...this.groups].map(([group, entry]) => ({
        group,
        firing: [...entry.firing],
        resolved: [...entry.resolved],
        tried: entry.tried && [...entry.tried],
        atMs: entry.atMs,
      })),
      alerts: this.alerts.snapshot(),
      flap: this.flap,
    };
    return JSON.stringify(stored);
  }

  /** The writes take the content from here when they write: the notes' changes are theirs now. */
  private changed(nowMs: number): void {
    this.latestMs = Math.max(this.latestMs, nowMs);
    this.alerts.dirty = false;
  }

  private load(nowMs: number): SavedFlapState {
    const text = readStateFile(this.file);
    if (text === undefined) return NO_FLAP;
    try {
      const parsed = JSON.parse(text) as StoredLog | StoredEntry[];
      const stored: StoredLog = Array.isArray(parsed) ? { version: 1, groups: parsed, alerts: {}, flap: NO_FLAP } : parsed;
      if (stored.version > LOG_VERSION) throw new Error(`unknown notification log version ${stored.version}`);
      for (const entry of stored.groups)
        if (nowMs - entry.atMs <= RETENTION_MS)
          this.groups.set(entry.group, {
            firing: new Set(entry.firing),
            resolved: new Set(entry.resolved),
            tried: entry.tried && new Set(entry.tried),
            atMs: entry.atMs,
          });
      for (const [fingerprint, entry] of Object.entries(stored.alerts)) this.alerts.restore(fingerprint, entry);
      return stored.flap;
    } catch (error) {
      this.log.error({ file: this.file, err: error }, 'Notification log unreadable; starting with none');
      return NO_FLAP;
    }
  }
}
