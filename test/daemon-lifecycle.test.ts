import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../src/config/load.js';
import { Daemon } from '../src/daemon/daemon.js';
import { createLogger } from '../src/runtime/log.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { countingCollectors, type CountingCollectors } from './helpers/counting-collectors.js';
import { ManualClock } from './helpers/manual-clock.js';
import { captureStream, parseExposition, valueOf } from './helpers/stack.js';
import { until } from './helpers/until.js';

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-lifecycle-'));

describe('daemon reloads', () => {
  let sim: Simulator;
  let daemon: Daemon;
  // The schedule runs on a manual clock; the runs are real requests to the simulator.
  let clock: ManualClock;
  let runs: CountingCollectors;
  afterEach(async () => {
    await clock.runUntil(daemon.stop());
    await sim.close();
  });

  async function startDaemon(file: string): Promise<void> {
    sim = await startSimulator();
    writeFileSync(
      file,
      `global: { interval: 1s, timeout: 800ms }\ntargets: [{ name: a, url: "${sim.url}", collectors: { node_info: { enabled: false }, upgrades: { enabled: false } } }]\n`,
    );
    clock = new ManualClock();
    runs = countingCollectors();
    daemon = new Daemon({
      config: loadConfigFile(file),
      logger: createLogger('error', 'json', captureStream([])),
      configFile: file,
      clock,
      collectorRegistry: runs.registry,
    });
    const started = daemon.start();
    await runFor(1000);
    await started;
  }

  /**
   * Moves the clock in half intervals, letting the runs each step started end for real before the
   * next: no run meets its deadline, and every tick finds its job idle.
   */
  async function runFor(ms: number): Promise<void> {
    for (let elapsedMs = 0; elapsedMs < ms; elapsedMs += 500) {
      await clock.advance(500);
      await until(() => runs.running() === 0);
    }
  }

  const peersRequests = () =>
    valueOf(parseExposition(daemon.snapshot.body('text', false).toString()), 'avaxmon_rpc_requests_total', {
      method: 'info.peers',
      outcome: 'success',
    }) ?? 0;

  it('runs overlapping reloads one at a time, leaving one schedule', async () => {
    await startDaemon(join(dir, 'overlap.yaml'));
    const results = await Promise.all([daemon.reload(), daemon.reload(), daemon.reload()]);
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    await runFor(2000); // the last reload's first round, and its ticks have begun
    const before = runs.started('peers');
    await runFor(5000);
    // One schedule runs the peers collector once a second; a leaked second one would double it.
    expect(runs.started('peers') - before).toBe(5);
  });

  it('keeps collecting when a reload fails on an unusable state_dir', async () => {
    const file = join(dir, 'state.yaml');
    await startDaemon(file);
    const notADirectory = join(dir, 'plain-file');
    writeFileSync(notADirectory, 'x');
    writeFileSync(file, `targets: [{ name: a, url: "${sim.url}" }]\nalerts: { state_dir: ${notADirectory}/data }\n`);
    const result = await daemon.reload();
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatch(/^alerts\.state_dir: cannot use .*plain-file\/data as a writable directory: ENOTDIR$/);
    const [runsBefore, requestsBefore] = [runs.started('peers'), peersRequests()];
    await runFor(2000);
    expect(runs.started('peers') - runsBefore).toBe(2);
    expect(peersRequests()).toBeGreaterThan(requestsBefore);
    expect(valueOf(parseExposition(daemon.snapshot.body('text', false).toString()), 'avaxmon_config_last_reload_successful')).toBe(0);
  });
});

describe('daemon reload and connections', () => {
  it('closes the keep-alive connections to a target the reload removed', async () => {
    const old = createServer((_, response) => response.writeHead(503).end('busy'));
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    const sim = await startSimulator();
    const file = join(dir, 'origins.yaml');
    writeFileSync(
      file,
      `global: { interval: 1s, timeout: 800ms }\ntargets: [{ name: a, url: "http://127.0.0.1:${(old.address() as { port: number }).port}" }]\n`,
    );
    const daemon = new Daemon({ config: loadConfigFile(file), logger: createLogger('error', 'json', captureStream([])), configFile: file });
    const connections = () => new Promise<number>((resolve) => old.getConnections((_, count) => resolve(count)));
    try {
      await daemon.start();
      expect(await connections()).toBeGreaterThan(0);
      writeFileSync(file, `global: { interval: 1s, timeout: 800ms }\ntargets: [{ name: a, url: "${sim.url}" }]\n`);
      expect((await daemon.reload()).ok).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await connections()).toBe(0);
    } finally {
      await daemon.stop();
      await sim.close();
      old.close();
    }
  });
});
