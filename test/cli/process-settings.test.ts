import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NODE_FLAGS, PROCESS_ENV } from '../../src/runtime/process-settings.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { eventually } from '../helpers/stack.js';

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
let sim: Simulator;
let configFile: string;
let daemon: ChildProcess | undefined;

beforeAll(async () => {
  sim = await startSimulator();
  configFile = join(mkdtempSync(join(tmpdir(), 'avaxmon-settings-')), 'config.yaml');
  writeFileSync(configFile, `targets: [{ name: node, url: "${sim.url}" }]\n`);
});
afterEach(() => {
  daemon?.kill('SIGKILL');
  daemon = undefined;
});
afterAll(() => sim.close());

/** Starts the daemon as `npm start` does and reads its command line and environment from /proc once it listens. */
async function startAndInspect(env: NodeJS.ProcessEnv, nodeFlags: string[] = []): Promise<{ cmdline: string[]; environ: string[] }> {
  daemon = spawn(process.execPath, [...nodeFlags, MAIN, `--config.file=${configFile}`, '--web.listen-address=127.0.0.1:0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  daemon.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(
    async () => output,
    (text) => text.includes('avaxmon listening'),
    60_000,
  );
  // The same process id as the one started: supervisors and signals see one process.
  const read = (file: string) => readFileSync(`/proc/${daemon!.pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  return { cmdline: read('cmdline'), environ: read('environ') };
}

describe.skipIf(process.platform !== 'linux')('the process settings, applied by the daemon itself', () => {
  it('are applied however the daemon is started, in the process that was started', async () => {
    const { AVAXMON_PROCESS_SETTINGS: _, ...plain } = process.env;
    const { cmdline, environ } = await startAndInspect(plain);
    expect(cmdline.slice(1, 1 + NODE_FLAGS.length)).toEqual(NODE_FLAGS);
    for (const [name, value] of Object.entries(PROCESS_ENV)) expect(environ).toContain(`${name}=${value}`);
  });

  it("leave V8 flags the operator gives on the command line in force: they come after the daemon's, and V8 takes the last", async () => {
    const { AVAXMON_PROCESS_SETTINGS: _, ...plain } = process.env;
    const { cmdline } = await startAndInspect(plain, ['--heap-growing-percent=60']);
    const growth = cmdline.filter((argument) => argument.startsWith('--heap-growing-percent='));
    expect(growth).toEqual(['--heap-growing-percent=25', '--heap-growing-percent=60']);
    // V8 takes a flag's last value: shown with one whose effect a script can read.
    const limitMb = spawnSync(
      process.execPath,
      ['--max-old-space-size=100', '--max-old-space-size=300', '-p', "require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20"],
      { encoding: 'utf8' },
    );
    expect(Number(limitMb.stdout)).toBeGreaterThan(300);
  });

  it("compact V8's heap once the first round is done, as the process settings expose gc() for", async () => {
    const traced = async (env: NodeJS.ProcessEnv) => {
      // --trace-gc prints each collection on stdout; one asked for by gc() is marked "testing".
      daemon = spawn(process.execPath, ['--trace-gc', MAIN, `--config.file=${configFile}`, '--web.listen-address=127.0.0.1:0'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let trace = '';
      let log = '';
      daemon.stdout!.on('data', (chunk: Buffer) => (trace += chunk.toString()));
      daemon.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      await eventually(
        async () => log,
        (text) => text.includes('First collection round complete'),
        60_000,
      );
      // Its exit flushes what the C library still buffers of the trace.
      const exited = new Promise((resolve) => daemon!.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
      return trace.split('\n').filter((line) => /Mark-Compact \(reduce\).*testing/.test(line));
    };
    const { AVAXMON_PROCESS_SETTINGS: _, ...plain } = process.env;
    expect((await traced(plain)).length).toBeGreaterThan(0);
    // Without the settings gc() is not exposed: no collection is asked for.
    expect(await traced({ ...process.env, AVAXMON_PROCESS_SETTINGS: 'off' })).toEqual([]);
  });

  it('can be turned off for a comparison', async () => {
    const { cmdline, environ } = await startAndInspect({ ...process.env, AVAXMON_PROCESS_SETTINGS: 'off' });
    expect(cmdline.some((argument) => NODE_FLAGS.includes(argument))).toBe(false);
    expect(environ.some((entry) => entry.startsWith('MALLOC_ARENA_MAX='))).toBe(false);
  });
});
