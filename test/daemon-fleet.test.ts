import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile, parseConfig } from '../src/config/load.js';
import { Daemon, RELOAD_GRACE_MS, STOP_GRACE_MS } from '../src/daemon/daemon.js';
import { createLogger } from '../src/runtime/log.js';
import { ManualClock, settle } from './helpers/manual-clock.js';
import { captureStream } from './helpers/stack.js';

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-fleet-'));
const quiet = () => createLogger('error', 'json', captureStream([]));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A node that accepts connections and never answers: every request hangs until it is aborted. */
async function silentNode(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe('--shard=INDEX/COUNT', () => {
  it('3 shards collect every target exactly once', async () => {
    const names = Array.from({ length: 30 }, (_, index) => `validator-${index}`);
    // Port 9 refuses at once: the first round ends quickly, and only the split matters here.
    const yaml = `global: { interval: 1s, timeout: 500ms }\ntargets:\n${names.map((name) => `  - { name: ${name}, url: "http://127.0.0.1:9" }`).join('\n')}\n`;
    const clock = new ManualClock();
    const shards = [0, 1, 2].map((index) => new Daemon({ config: parseConfig(yaml), logger: quiet(), shard: { index, count: 3 }, clock }));
    cleanups.push(async () => void (await Promise.all(shards.map((daemon) => daemon.stop()))));
    const started = Promise.all(shards.map((daemon) => daemon.start()));
    await clock.advance(1000); // the first runs are spread over at most the 1 s interval
    await started;
    const collected = shards.map((daemon) => new Set([...daemon.collectorStates.values()].map((state) => state.target)));
    expect(collected.flatMap((targets) => [...targets]).sort()).toEqual([...names].sort());
    for (const targets of collected) expect(targets.size).toBeGreaterThan(0);
  });
});

describe('bounded reload and stop', () => {
  it('reload and stop return once their grace has passed while every collector hangs on a silent node', async () => {
    const node = await silentNode();
    const file = join(dir, 'silent.yaml');
    // Requests would hang for 60 s: only the abort ends them.
    writeFileSync(file, `global: { interval: 60s, timeout: 60s }\ntargets: [{ name: silent, url: "${node.url}" }]\n`);
    // The daemon's schedule and graces run on a manual clock; its requests are real and hang.
    const clock = new ManualClock();
    const daemon = new Daemon({ config: loadConfigFile(file), logger: quiet(), configFile: file, clock });
    void daemon.start();
    // The first round is spread over 9 x 40 ms: every run has started, four per origin at a time.
    await clock.advance(1000);
    const reloaded = await afterExactly(clock, RELOAD_GRACE_MS, daemon.reload());
    expect(reloaded.ok).toBe(true);
    await clock.advance(1000); // the reloaded config's first runs are in flight and hang in turn
    await afterExactly(clock, STOP_GRACE_MS, daemon.stop());
  });
});

/**
 * Awaits `promise`, asserting it is still pending until `graceMs` have passed on the clock and that,
 * once they have, it settles with no more time passing: the runs' abort ends their hung requests.
 */
async function afterExactly<T>(clock: ManualClock, graceMs: number, promise: Promise<T>): Promise<T> {
  let settled = false;
  void promise.finally(() => (settled = true));
  const startMs = clock.now();
  await settle();
  await clock.advance(graceMs - 1);
  expect(settled).toBe(false);
  await clock.advance(1);
  const result = await promise;
  expect(clock.now() - startMs).toBe(graceMs);
  return result;
}
