import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { settled, until, useDaemonProcesses } from './daemon-processes.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

const daemons = useDaemonProcesses();
const setup = () => daemons.setupNodeUnhealthyOnly();

interface LoggedDaemon {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Its exit code, once its output is all in (`output()` is then complete). */
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A daemon whose log is kept (the shared harness discards it). */
async function startLogged(configFile: string): Promise<LoggedDaemon> {
  const port = await freePort();
  const child = spawn('node', [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=info'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  // 'close', not 'exit': on a loaded machine the last log lines can arrive after the exit.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => text, exited };
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? [path, ...filesUnder(path)] : [path];
  });
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('state_dir', () => {
  it("belongs to one process: a second one exits 2 naming the holder; a dead holder's lock is taken over", async () => {
    const { stateDir, configFile } = await setup();
    const first = await startLogged(configFile);
    await until(() => first.output().includes('avaxmon listening'), 60_000);

    const second = await startLogged(configFile);
    expect(await second.exited).toBe(2);
    expect(second.output()).toContain(`alerts.state_dir: is in use by another avaxmon (host ${hostname()}, pid ${first.child.pid}, since `);
    expect(second.output()).not.toContain('avaxmon listening');

    first.child.kill('SIGKILL');
    await first.exited;
    const third = await startLogged(configFile);
    await until(() => third.output().includes('avaxmon listening'), 60_000);

    // A clean stop leaves no lock behind.
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(existsSync(join(stateDir, 'avaxmon.lock'))).toBe(false);
  }, 180_000);

  it('exits 2 at its next alerts.lock_heartbeat once another avaxmon has taken its lock over', async () => {
    const { stateDir, configFile } = await setup();
    // Its next heartbeat finds the lock taken (the refresh itself is in state-dir-lock.test.ts, on a manual clock).
    writeFileSync(configFile, readFileSync(configFile, 'utf8').replace('alerts:\n', 'alerts:\n  lock_heartbeat: 100ms\n'));
    const daemon = await startLogged(configFile);
    await until(() => daemon.output().includes('avaxmon listening'), 60_000);
    const lock = join(stateDir, 'avaxmon.lock');
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: daemon.child.pid, heartbeatMs: 100 });
    // As a process on another host would write it after judging this one gone (frozen past the stale limit).
    const other = `${JSON.stringify({ hostname: 'other-host', pid: 1, instance: 'other', since: new Date().toISOString() })}\n`;
    writeFileSync(lock, other);
    expect(await daemon.exited).toBe(2);
    expect(daemon.output()).toContain('"msg":"Another avaxmon took over the state_dir lock; exiting"');
    expect(readFileSync(lock, 'utf8')).toBe(other);
  }, 180_000);

  it('a failing disk keeps alerts in memory: sent once, logged once per burst, counted, no temp files left', async () => {
    const { sim, hook, stateDir, configFile } = await setup();
    const daemon = await startLogged(configFile);
    await until(() => daemon.output().includes('First collection round complete'), 60_000);

    // Every outbox write now fails (ENOTDIR), and every alert state write fails at its rename
    // (a non-empty directory in the way), after its temporary file was written.
    renameSync(join(stateDir, 'outbox'), join(stateDir, 'outbox-away'));
    writeFileSync(join(stateDir, 'outbox'), 'not a directory');
    rmSync(join(stateDir, 'alerts.json'), { force: true });
    mkdirSync(join(stateDir, 'alerts.json', 'in-the-way'), { recursive: true });

    sim.apply({ fail_check: 'network' });
    await hook.waitFor(1, 60_000);
    await settled(daemon.url, { runs: 3 }); // a few more evaluation cycles, each of which would fail to write again

    const log = daemon.output();
    expect(count(log, '"msg":"Alert firing"')).toBe(1);
    // Once per file, however many cycles failed: the outbox, the alert state, and the outbox clean-up after delivery.
    const failureLines = log.split('\n').filter((line) => line.includes('Cannot write to state_dir'));
    expect(failureLines.map((line) => (JSON.parse(line) as { file: string }).file).sort()).toEqual(['alerts', 'journal', 'outbox']);
    expect(hook.requests).toHaveLength(1);
    // A background retry's temporary file lives for the moment of its write; none may stay behind.
    await until(() => filesUnder(stateDir).every((path) => !path.endsWith('.tmp')));
    const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
    expect(metrics).toMatch(/avaxmon_state_dir_write_errors_total\{file="outbox"\} [1-9]/);
    expect(metrics).toMatch(/avaxmon_state_dir_write_errors_total\{file="alerts"\} [1-9]/);

    // The disk recovers: writes succeed again and that is said once.
    rmSync(join(stateDir, 'alerts.json'), { recursive: true });
    sim.apply({ recover_check: 'network' });
    await hook.waitFor(2, 60_000);
    await until(() => existsSync(join(stateDir, 'alerts.json')) && statSync(join(stateDir, 'alerts.json')).isFile(), 60_000);
    // The line follows the write that succeeded; it reaches the test's pipe a moment later.
    await until(() => count(daemon.output(), 'Writes to state_dir succeed again') > 0, 60_000);
    expect(count(daemon.output(), 'Writes to state_dir succeed again')).toBe(1);
  }, 180_000);
});
