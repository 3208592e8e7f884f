import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/runtime/log.js';
import { StateDirLock } from '../../src/alerts/state/state-dir-lock.js';
import { ManualClock } from '../helpers/manual-clock.js';

// The lock against lock files written by hand, as another host, container or earlier run would leave them.
// A second process on this host is refused in state-dir.test.ts, with real daemons.

const locks: StateDirLock[] = [];
afterEach(() => {
  for (const lock of locks.splice(0)) lock.release();
});

interface Written {
  stateDir: string;
  file: string;
}

/** A lock file naming `holder`, its heartbeat `ageMs` old. */
function writtenLock(holder: { hostname: string; pid: number; heartbeatMs?: number }, ageMs: number): Written {
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-lock-'));
  const file = join(stateDir, 'avaxmon.lock');
  writeFileSync(file, `${JSON.stringify({ ...holder, instance: 'earlier', since: '2026-01-01T00:00:00.000Z' })}\n`);
  const heartbeat = new Date(Date.now() - ageMs);
  utimesSync(file, heartbeat, heartbeat);
  return { stateDir, file };
}

function take(stateDir: string, options?: { clock?: ManualClock; heartbeatMs?: number }): { lines: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const log = createLogger('info', 'json', { write: (line: string) => lines.push(line) });
  locks.push(new StateDirLock(stateDir, log, options));
  return { lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

function holderOf(file: string): { hostname: string; pid: number; instance: string; heartbeatMs?: number } {
  return JSON.parse(readFileSync(file, 'utf8')) as { hostname: string; pid: number; instance: string; heartbeatMs?: number };
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

const FRESH_MS = 1_000;
const STALE_MS = 60_000;

describe('state_dir lock', () => {
  it('refuses a lock from another host with a fresh heartbeat, even with our pid (another container, also PID 1)', () => {
    const { stateDir, file } = writtenLock({ hostname: 'other-host', pid: process.pid }, FRESH_MS);
    expect(() => take(stateDir)).toThrow(
      `alerts.state_dir: is in use by another avaxmon (host other-host, pid ${process.pid}, since 2026-01-01T00:00:00.000Z, last heartbeat 1s ago, lock file ${file});`,
    );
    expect(holderOf(file).instance).toBe('earlier');
  });

  it('takes over a lock from another host whose heartbeat is stale, logging the old holder', () => {
    const { stateDir, file } = writtenLock({ hostname: 'other-host', pid: 4242 }, STALE_MS);
    const { lines } = take(stateDir);
    expect(holderOf(file)).toMatchObject({ hostname: hostname(), pid: process.pid });
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'Taking over the state_dir lock of an avaxmon that is gone',
        reason: 'heartbeat stale',
        previousHolder: expect.objectContaining({ hostname: 'other-host', pid: 4242, instance: 'earlier' }),
      }),
    );
  });

  it('takes over a fresh lock on this host whose pid no longer runs (kill -9)', () => {
    const { stateDir, file } = writtenLock({ hostname: hostname(), pid: deadPid() }, FRESH_MS);
    take(stateDir);
    expect(holderOf(file)).toMatchObject({ hostname: hostname(), pid: process.pid });
  });

  it('takes over a fresh lock on this host with our own pid at once (a restarted container, PID 1 again)', () => {
    const { stateDir, file } = writtenLock({ hostname: hostname(), pid: process.pid }, FRESH_MS);
    take(stateDir);
    expect(holderOf(file)).toMatchObject({ hostname: hostname(), pid: process.pid });
    expect(holderOf(file).instance).not.toBe('earlier');
  });

  it("judges a lock stale by its holder's heartbeat, not its own", () => {
    // 20 s old: stale for a 5 s heartbeat (ours), alive for the holder's 10 s one.
    const slow = writtenLock({ hostname: 'other-host', pid: 4242, heartbeatMs: 10_000 }, 20_000);
    expect(() => take(slow.stateDir)).toThrow('(a lock whose heartbeat stops for 30s is taken over)');
    expect(holderOf(slow.file).instance).toBe('earlier');

    // 4 s old: fresh for a 5 s heartbeat (ours), three missed beats of the holder's 1 s one.
    const fast = writtenLock({ hostname: 'other-host', pid: 4242, heartbeatMs: 1_000 }, 4_000);
    take(fast.stateDir);
    expect(holderOf(fast.file)).toMatchObject({ hostname: hostname(), pid: process.pid, heartbeatMs: 5_000 });
  });

  it('refreshes its heartbeat every 5 s of its clock by default, or every alerts.lock_heartbeat', async () => {
    for (const { heartbeatMs, expectedMs } of [
      { heartbeatMs: undefined, expectedMs: 5_000 },
      { heartbeatMs: 200, expectedMs: 200 },
    ]) {
      const { stateDir, file } = writtenLock({ hostname: 'other-host', pid: 1 }, STALE_MS);
      const clock = new ManualClock();
      take(stateDir, { clock, heartbeatMs });
      expect(holderOf(file).heartbeatMs).toBe(expectedMs);
      const longAgo = new Date(Date.now() - STALE_MS);
      utimesSync(file, longAgo, longAgo);
      await clock.advance(expectedMs - 1);
      expect(Date.now() - statSync(file).mtimeMs).toBeGreaterThan(STALE_MS / 2);
      await clock.advance(1);
      expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(FRESH_MS);
    }
  });

  it('removes its lock on release, but not one taken over from it', () => {
    const first = writtenLock({ hostname: 'other-host', pid: 1 }, STALE_MS);
    take(first.stateDir);
    for (const lock of locks.splice(0)) lock.release();
    expect(existsSync(first.file)).toBe(false);

    const second = writtenLock({ hostname: 'other-host', pid: 1 }, STALE_MS);
    take(second.stateDir);
    writeFileSync(second.file, readFileSync(second.file, 'utf8').replace(/"instance":"[^"]+"/, '"instance":"newer"'));
    for (const lock of locks.splice(0)) lock.release();
    expect(holderOf(second.file).instance).toBe('newer');
  });
});
