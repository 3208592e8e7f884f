import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { startRecorder, statuses, type Recorder } from './recorder.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function setup(): Promise<{ sim: Simulator; hook: Recorder; stateDir: string; configFile: string }> {
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
    `global: { interval: 1s, timeout: 500ms }
targets: [{ name: node-a, url: "${sim.url}" }]
alerts:
  state_dir: ${stateDir}
  retry: { initial_backoff: 200ms, max_backoff: 500ms }
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }
    AvalancheSubnetUnhealthy: { enabled: false }
    AvalancheChainStalled: { enabled: false }
  receivers:
    - { name: hook, type: webhook, url: "${hook.url}/hook", match: { alertname: AvalancheNodeUnhealthy } }
`,
  );
  return { sim, hook, stateDir, configFile };
}

async function startDaemon(configFile: string): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn('node', [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: 'ignore' });
  children.add(child);
  return child;
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
    children.delete(child);
  });
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function queued(stateDir: string): number {
  try {
    return readdirSync(join(stateDir, 'outbox')).filter((name) => name.endsWith('.json')).length;
  } catch {
    return 0;
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9 and restart', () => {
  it('loses nothing that was queued, and keeps the order of one alert', async () => {
    const { sim, hook, stateDir, configFile } = await setup();
    hook.respond = () => ({ status: 503, headers: { 'retry-after': '60' } });
    const first = await startDaemon(configFile);
    sim.apply({ fail_check: 'network' });
    await until(() => queued(stateDir) === 1);
    sim.apply({ recover_check: 'network' });
    await until(() => queued(stateDir) === 2);
    await killHard(first);
    expect(hook.requests).toHaveLength(0);

    hook.respond = () => ({ status: 200 });
    await startDaemon(configFile);
    await until(() => hook.requests.length === 2);
    await sleep(2000);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
    expect(queued(stateDir)).toBe(0);
  });

  it('does not re-announce a firing alert, and sends the resolve that fell due while it was down', async () => {
    const { sim, hook, configFile } = await setup();
    const first = await startDaemon(configFile);
    sim.apply({ fail_check: 'network' });
    await until(() => hook.requests.length === 1);
    await killHard(first);

    const second = await startDaemon(configFile);
    await sleep(3000);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
    await killHard(second);

    sim.apply({ recover_check: 'network' });
    await startDaemon(configFile);
    await until(() => hook.requests.length === 2);
    await sleep(1500);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
    const keys = hook.requests.map((request) => request.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
  });
});
