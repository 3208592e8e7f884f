import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';

/**
 * One avaxmon per state_dir: two would deliver each other's outbox and overwrite each other's alert
 * state. The lock file holds the owner's pid; a lock left by a process that no longer runs (kill -9)
 * is taken over.
 */
export class StateDirLock {
  private readonly file: string;

  constructor(stateDir: string) {
    this.file = join(stateDir, 'avaxmon.lock');
    this.acquire();
    held.add(this);
    if (held.size === 1) process.once('exit', releaseAll);
  }

  release(): void {
    held.delete(this);
    if (held.size === 0) process.off('exit', releaseAll);
    if (this.holder() === process.pid) rmSync(this.file, { force: true });
  }

  private acquire(): void {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        writeFileSync(this.file, `${process.pid}\n`, { flag: 'wx' });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = this.holder();
      if (holder !== undefined && holder !== process.pid && isRunning(holder)) {
        throw new ConfigError([
          { path: 'alerts.state_dir', message: `is in use by another avaxmon (pid ${holder}, lock file ${this.file}); give each process its own state_dir` },
        ]);
      }
      rmSync(this.file, { force: true });
    }
    throw new ConfigError([{ path: 'alerts.state_dir', message: `cannot take the lock file ${this.file}: another process keeps creating it` }]);
  }

  private holder(): number | undefined {
    try {
      const pid = Number.parseInt(readFileSync(this.file, 'utf8'), 10);
      return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }
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
