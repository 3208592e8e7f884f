import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_HEAP_GROWTH_PERCENT } from '../../src/runtime/heap-growth.js';
import { NODE_FLAGS, PROCESS_ENV } from '../../src/runtime/process-settings.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { eventually } from '../helpers/stack.js';

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
let sim: Simulator;
let configFile: string;
let daemon: ChildProcess | undefined;
const others: ChildProcess[] = [];

beforeAll(async () => {
  sim = await startSimulator();
  configFile = join(mkdtempSync(join(tmpdir(), 'avaxmon-settings-')), 'config.yaml');
  writeFileSync(configFile, `targets: [{ name: node, url: "${sim.url}" }]\n`);
});
afterEach(() => {
  daemon?.kill('SIGKILL');
  daemon = undefined;
  for (const other of others.splice(0)) other.kill('SIGKILL');
});
afterAll(() => sim.close());

/** Starts the daemon as `npm start` does and reads its command line and environment from /proc once it listens. */
async function startAndInspect(env: NodeJS.ProcessEnv): Promise<{ cmdline: string[]; environ: string[] }> {
  daemon = spawn(process.execPath, [MAIN, `--config.file=${configFile}`, '--web.listen-address=127.0.0.1:0'], {
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

  it('can be turned off for a comparison', async () => {
    const { cmdline, environ } = await startAndInspect({ ...process.env, AVAXMON_PROCESS_SETTINGS: 'off' });
    expect(cmdline.some((argument) => NODE_FLAGS.includes(argument))).toBe(false);
    expect(environ.some((entry) => entry.startsWith('MALLOC_ARENA_MAX='))).toBe(false);
  });
});

/**
 * V8 reads --heap-growing-percent at each full collection, so setting it at run time takes effect:
 * what HeapGrowth relies on. The same churn of objects that live long enough to be promoted takes
 * more full collections at a small growth than at a large one.
 */
const CHURN = `
const v8 = require('node:v8');
const { PerformanceObserver, constants } = require('node:perf_hooks');
let full = 0;
new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++; }).observe({ entryTypes: ['gc'] });
const live = Array.from({ length: 300000 }, (_, i) => ({ a: i, b: 'x' + i }));
const ring = new Array(200000);
let at = 0;
const phase = async () => {
  for (let round = 0; round < 300; round++) {
    for (let i = 0; i < 5000; i++) { ring[at] = { a: i, b: [i, i, i, i], c: 'y' + i + round }; at = (at + 1) % ring.length; }
    await new Promise((resolve) => setImmediate(resolve));
  }
};
(async () => {
  await phase();
  const counts = {};
  for (const percent of [5, 100]) {
    v8.setFlagsFromString('--heap-growing-percent=' + percent);
    full = 0;
    await phase();
    await new Promise((resolve) => setImmediate(resolve));
    counts[percent] = full;
  }
  console.log(JSON.stringify({ live: live.length, ...counts }));
})();
`;

/** A daemon started as `npm start` does, logging at debug level; `output()` is its log so far. */
function startLogging(env: NodeJS.ProcessEnv, nodeFlags: string[] = []): () => string {
  const child = spawn(
    process.execPath,
    [...nodeFlags, MAIN, `--config.file=${configFile}`, '--web.listen-address=127.0.0.1:0', '--log.level=debug'],
    {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  others.push(child);
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

describe("V8's old generation growth", () => {
  it('set at run time, changes how often full collections run: what the daemon relies on', () => {
    const run = spawnSync(process.execPath, ['--heap-growing-percent=40', '-e', CHURN], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    const counts = JSON.parse(run.stdout) as Record<string, number>;
    expect(counts['5']).toBeGreaterThan(counts['100'] * 1.5);
  });

  it('relaxes once a daemon with room has settled, and is left alone when the operator set it', async () => {
    const { AVAXMON_PROCESS_SETTINGS: _, ...plain } = process.env;
    const ours = startLogging(plain);
    const operators = startLogging(plain, ['--heap-growing-percent=60']);
    const changed = (text: string) => text.split('\n').find((line) => line.includes("V8's old generation growth changed"));
    const line = changed(
      await eventually(
        async () => ours(),
        (text) => changed(text) !== undefined,
        60_000,
      ),
    )!;
    expect(JSON.parse(line)).toMatchObject({ percent: RELAXED_HEAP_GROWTH_PERCENT });
    // Started together: had it been governed, it would have relaxed by now.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(operators()).toContain('avaxmon listening');
    expect(changed(operators())).toBeUndefined();
  });
});
