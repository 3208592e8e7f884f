import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile, parseConfig } from '../src/config/load.js';
import { Daemon } from '../src/daemon.js';
import { createLogger } from '../src/log.js';
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
    const shards = [0, 1, 2].map((index) => new Daemon({ config: parseConfig(yaml), logger: quiet(), shard: { index, count: 3 } }));
    cleanups.push(async () => void (await Promise.all(shards.map((daemon) => daemon.stop()))));
    await Promise.all(shards.map((daemon) => daemon.start()));
    const collected = shards.map((daemon) => new Set([...daemon.collectorStates.values()].map((state) => state.target)));
    expect(collected.flatMap((targets) => [...targets]).sort()).toEqual([...names].sort());
    for (const targets of collected) expect(targets.size).toBeGreaterThan(0);
  });
});

describe('bounded reload and stop', () => {
  it('reload and stop return within seconds while every collector hangs on a silent node', async () => {
    const node = await silentNode();
    const file = join(dir, 'silent.yaml');
    // Requests would hang for 60 s: only the abort ends them.
    writeFileSync(file, `global: { interval: 60s, timeout: 60s }\ntargets: [{ name: silent, url: "${node.url}" }]\n`);
    const daemon = new Daemon({ config: loadConfigFile(file), logger: quiet(), configFile: file });
    void daemon.start();
    await new Promise((resolve) => setTimeout(resolve, 6000)); // every first run is now in flight
    let started = Date.now();
    expect((await daemon.reload()).ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(6000);
    await new Promise((resolve) => setTimeout(resolve, 5500));
    started = Date.now();
    await daemon.stop();
    expect(Date.now() - started).toBeLessThan(6000);
  });
});
