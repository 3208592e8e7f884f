import { randomUUID } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { every, systemClock, type Clock } from '../../schedule/clock.js';
import { ConfigError } from '../../errors.js';

/** `alerts.lock_heartbeat`'s default, and the heartbeat of a lock file that names none (written by an older avaxmon). */
export const DEFAULT_LOCK_HEARTBEAT_MS = 5_000;
/** Three missed heartbeats: the holder (or its host) has stopped, it is not merely slow. */
const MISSED_HEARTBEATS = 3;

/** Who holds the lock, as written in the lock file. */
interface Holder {
  hostname: string;
  pid: number;
  /** Random per process: tells the lock we wrote from one written by another process with our hostname and pid. */
  instance: string;
  since: string;
  /** The holder's own heartbeat: another process judges it stale by this, whatever its own setting. */
  heartbeatMs?: number;
}

/** A lock file as read: its text, its holder when the text names one, and the age of its heartbeat (mtime). */
interface Found {
  text: string;
  holder: Holder | undefined;
  ageMs: number;
}

/**
 * One avaxmon per state_dir: two would deliver each other's outbox and overwrite each other's alert
 * state. Node has no flock(), and a pid alone identifies nothing across containers (each is PID 1)
 * or hosts (NFS), so the lock file names its holder and the holder refreshes its mtime as a
 * heartbeat. goneBecause() says when a lock is taken over; lost() what a holder does when it was.
 */
export class StateDirLock {
  private readonly file: string;
  private readonly me: Holder;
  private readonly stopHeartbeat: () => void;
  private refreshFailing = false;

  /** `heartbeatMs`: `alerts.lock_heartbeat`, how often the holder refreshes the lock (staleAfterMs). */
  constructor(
    stateDir: string,
    private readonly log: Logger,
    { heartbeatMs = DEFAULT_LOCK_HEARTBEAT_MS, clock = systemClock }: { heartbeatMs?: number; clock?: Clock } = {},
  ) {
    this.file = join(stateDir, 'avaxmon.lock');
    this.me = { hostname: hostname(), pid: process.pid, instance: randomUUID(), since: new Date().toISOString(), heartbeatMs };
    this.acquire();
    // Unref'd: the heartbeat alone must not keep a stopping process alive. Only its timer runs on
    // `clock`: the heartbeat's age is read from the file's mtime, which other processes compare with
    // the wall clock.
    this.stopHeartbeat = every(clock, heartbeatMs, () => this.heartbeat());
    held.add(this);
    if (held.size === 1) process.once('exit', releaseAll);
  }

  release(): void {
    this.stopHeartbeat();
    held.delete(this);
    if (held.size === 0) process.off('exit', releaseAll);
    try {
      // A lock taken over from us is the new holder's.
      if (this.holds(readLock(this.file))) rmSync(this.file, { force: true });
    } catch {
      // Unreadable: left to go stale, then taken over.
    }
  }

  private acquire(): void {
    const text = `${JSON.stringify(this.me)}\n`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (createExclusive(this.file, text)) return;
      const found = readLock(this.file);
      if (found === undefined) continue;
      const reason = goneBecause(found, this.me);
      if (reason === undefined) throw inUse(this.file, found);
      if (removeIfUnchanged(this.file, found.text, `${this.file}.${this.me.instance}`)) {
        this.log.warn(
          { lock: this.file, previousHolder: describe(found), heartbeatAgeMs: Math.round(found.ageMs), reason },
          'Taking over the state_dir lock of an avaxmon that is gone',
        );
      }
    }
    throw new ConfigError([
      { path: 'alerts.state_dir', message: `cannot take the lock file ${this.file}: another process keeps creating it` },
    ]);
  }

  /** Refreshes the mtime while the lock is still ours. */
  private heartbeat(): void {
    try {
      const found = readLock(this.file);
      if (found === undefined) this.recreate();
      else if (!this.holds(found)) this.lost(found);
      else {
        const now = new Date();
        utimesSync(this.file, now, now);
      }
    } catch (error) {
      // Once per burst: every heartbeat of a read-only or unreachable disk fails.
      if (!this.refreshFailing)
        this.log.warn(
          { err: error, lock: this.file, staleAfterMs: staleAfterMs(this.me) },
          'Cannot refresh the state_dir lock; another avaxmon may take it over',
        );
      this.refreshFailing = true;
      return;
    }
    this.refreshFailing = false;
  }

  /** Someone removed the lock file (by hand, or a take-over moving it aside for an instant): ours again unless another process created one. */
  private recreate(): void {
    if (createExclusive(this.file, `${JSON.stringify(this.me)}\n`))
      this.log.warn({ lock: this.file }, 'The state_dir lock file was removed; wrote it again');
  }

  /**
   * Another process took the lock: it judged us gone (our heartbeat stopped for three beats: a frozen
   * process or host, a cut to the NFS server) or shares our hostname and pid. It holds the lock
   * now, and two processes must not share the outbox, so this one exits 2, as if it had started second.
   */
  private lost(found: Found): void {
    this.stopHeartbeat();
    this.log.error({ lock: this.file, holder: describe(found) }, 'Another avaxmon took over the state_dir lock; exiting');
    this.log.flush();
    process.exit(2);
  }

  private holds(found: Found | undefined): boolean {
    return found?.holder?.instance === this.me.instance;
  }
}

/** How long the heartbeat of `holder` may stop before its lock is taken over from anywhere. */
function staleAfterMs(holder: Holder | undefined): number {
  return MISSED_HEARTBEATS * (holder?.heartbeatMs ?? DEFAULT_LOCK_HEARTBEAT_MS);
}

/**
 * Why the lock's holder is certainly gone, or undefined while it may run. A heartbeat older than
 * staleAfterMs is gone wherever it ran (one merely frozen finds out at its next heartbeat and exits).
 * A fresh one is gone only if the same host can tell: its pid does not run here, or it is our own
 * pid, which makes it an earlier run of this process (PID 1 of a restarted container, whose last
 * heartbeat may be seconds old). Another host's pid says nothing here: every container is PID 1.
 */
function goneBecause(found: Found, me: Holder): string | undefined {
  if (found.ageMs > staleAfterMs(found.holder)) return 'heartbeat stale';
  const holder = found.holder;
  if (holder === undefined || holder.hostname !== me.hostname) return undefined;
  if (holder.pid === me.pid) return 'same hostname and pid as ours: an earlier run of this process';
  return isRunning(holder.pid) ? undefined : 'pid not running on this host';
}

function inUse(file: string, found: Found): ConfigError {
  const heartbeat = `last heartbeat ${Math.round(found.ageMs / 1000)}s ago`;
  const holder = found.holder;
  const who = holder ? `host ${holder.hostname}, pid ${holder.pid}, since ${holder.since}` : 'holder not recorded';
  return new ConfigError([
    {
      path: 'alerts.state_dir',
      message: `is in use by another avaxmon (${who}, ${heartbeat}, lock file ${file}); give each process its own state_dir (a lock whose heartbeat stops for ${staleAfterMs(holder) / 1000}s is taken over)`,
    },
  ]);
}

function describe(found: Found): Holder | string {
  return found.holder ?? found.text.trim();
}

/** O_EXCL: of two processes creating the lock, exactly one does. */
function createExclusive(file: string, text: string): boolean {
  try {
    writeFileSync(file, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Text and mtime from one open file, so the age judged is that of the text read. Undefined when there is no lock. */
function readLock(file: string): Found | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const text = readFileSync(fd, 'utf8');
    return { text, holder: parseHolder(text), ageMs: Date.now() - fstatSync(fd).mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Undefined for a lock that names no holder: an older avaxmon's bare pid, or one caught between create and write. */
function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    const valid =
      typeof value.hostname === 'string' &&
      typeof value.pid === 'number' &&
      Number.isSafeInteger(value.pid) &&
      value.pid > 0 &&
      typeof value.instance === 'string' &&
      typeof value.since === 'string' &&
      (value.heartbeatMs === undefined || (typeof value.heartbeatMs === 'number' && value.heartbeatMs > 0));
    return valid ? (value as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes the lock file only if it still holds the text judged. Two processes may judge the same
 * stale lock: the rename lets one of them move it aside; the other, having moved the lock the first
 * one has just created, puts it back.
 */
function removeIfUnchanged(file: string, judged: string, aside: string): boolean {
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (readFileSync(aside, 'utf8') === judged) {
    rmSync(aside);
    return true;
  }
  renameSync(aside, file);
  return false;
}

/** Locks this process holds, released on exit (SIGTERM ends in process.exit) by one listener. */
const held = new Set<StateDirLock>();

function releaseAll(): void {
  for (const lock of [...held]) lock.release();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
