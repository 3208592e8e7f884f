import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { CollectorName } from '../../src/collectors/names.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { onlyCollectors } from '../helpers/only-collectors.js';
import { freePort } from '../helpers/ports.js';
import { scrape, valueOf } from '../helpers/stack.js';
import { startRecorder, type Recorder } from './recorder.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

export interface CrashStack {
  readonly sim: Simulator;
  readonly hook: Recorder;
  readonly stateDir: string;
  readonly configFile: string;
}

/**
 * Real daemon processes for the kill -9 tests: each starts on a free port and is killed, with the
 * simulator and receiver closed, after every test.
 */
export function useDaemonProcesses() {
  const children = new Set<ChildProcess>();
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  return {
    /** The stack with AvalancheNodeUnhealthy alone, firing at once: one alert per health flip. */
    setupNodeUnhealthyOnly(): Promise<CrashStack> {
      return this.setup(
        `AvalancheNodeUnhealthy: { for: 0s }
AvalancheHealthCheckFailing: { enabled: false }
AvalancheSubnetUnhealthy: { enabled: false }
AvalancheChainStalled: { enabled: false }`,
        'AvalancheNodeUnhealthy',
        ['health'],
      );
    },

    /**
     * A simulator, a webhook receiver and a config with a 1s interval, the given alert rules, one
     * webhook receiver and only the collectors the rules read.
     */
    async setup(rulesYaml: string, receiverMatch: string, collectors: readonly CollectorName[]): Promise<CrashStack> {
      const sim = await startSimulator();
      const hook = await startRecorder();
      cleanups.push(async () => {
        await sim.close();
        await hook.close();
      });
      const dir = mkdtempSync(join(tmpdir(), 'avaxmon-crash-'));
      const stateDir = join(dir, 'state');
      const configFile = join(dir, 'config.yaml');
      writeFileSync(
        configFile,
        `global: { interval: 1s, timeout: 1s }
targets: [{ name: node-a, url: "${sim.url}", collectors: ${onlyCollectors(collectors)} }]
alerts:
  state_dir: ${stateDir}
  group_wait: 0s      # these tests follow single alerts, not grouping
  group_interval: 0s
  group_by: ['...']
  retry: { initial_backoff: 200ms, max_backoff: 500ms }
  rules:
${rulesYaml.replace(/^/gm, '    ')}
  receivers:
    - { name: hook, type: webhook, url: "${hook.url}/hook", match: { alertname: ${receiverMatch} } }
`,
      );
      return { sim, hook, stateDir, configFile };
    },

    /** `logLevel`: what `output()` holds (its stdout and stderr); nothing is kept by default. */
    async start(configFile: string, logLevel?: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
      const port = await freePort();
      const child = spawn(
        'node',
        [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, `--log.level=${logLevel ?? 'warn'}`],
        { stdio: logLevel ? ['ignore', 'pipe', 'pipe'] : 'ignore' },
      );
      children.add(child);
      let text = '';
      for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
      return { child, url: `http://127.0.0.1:${port}`, output: () => text };
    },

    killHard(child: ChildProcess): Promise<void> {
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
        children.delete(child);
      });
    },
  };
}

export async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until the daemon at `url` has run `collector` of node-a `runs` more times, each run followed by
 * the rules reading it, and has nothing left queued: whatever those evaluations had to send, it sent.
 * What a test then finds is all it will find, without waiting a guessed time for nothing to happen.
 */
export async function settled(url: string, { collector = 'health', runs = 2 } = {}, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const seen = new Set<number>();
  for (;;) {
    const samples = await scrape(url).catch(() => []);
    const lastSuccess = valueOf(samples, 'avaxmon_collector_last_success_timestamp_seconds', { target: 'node-a', collector });
    if (lastSuccess !== undefined) seen.add(lastSuccess);
    // The first value seen may be a run that ended before the call.
    if (seen.size > runs && valueOf(samples, 'avaxmon_notification_queue_depth') === 0) return;
    if (Date.now() > deadline) throw new Error(`${collector} did not run ${runs} more times with an empty outbox in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
