import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';

// The built CLI (dist/main.js), as in process.test.ts: a simulated fleet of NODES nodes from one
// simulator process, one daemon collecting from all of them while it is scraped.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const NODES = 200;
const INTERVAL_S = 10;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** The simulator serving NODES nodes on consecutive ports below the ephemeral range; another base if one is taken. */
async function startFleet(): Promise<{ sim: ChildProcess; simPort: number }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const simPort = 10_000 + Math.floor(Math.random() * (30_000 - NODES));
    const sim = spawn(
      'node',
      [MAIN, 'simulate', '--nodes', String(NODES), '--port', String(simPort), '--validators', '20', '--peers', '20'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    children.push(sim);
    const listening = await new Promise<boolean>((resolve) => {
      sim.stdout!.on('data', (chunk) => /listening/.test(String(chunk)) && resolve(true));
      sim.once('exit', () => resolve(false));
    });
    if (listening) return { sim, simPort };
  }
  throw new Error('no free range of ports for the simulator');
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function lastSuccesses(exposition: string): number[] {
  return [...exposition.matchAll(/^avaxmon_collector_last_success_timestamp_seconds\{[^}]*\} (\S+)$/gm)].map((match) => Number(match[1]));
}

describe(`a fleet of ${NODES} simulated nodes`, () => {
  it('is collected while scraped: every scrape answered within a collection interval, no stale collector, SIGTERM exits 0 within the stop deadline', async () => {
    const { sim, simPort } = await startFleet();
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-fleet-process-'));
    const targets = Array.from(
      { length: NODES },
      (_, index) => `  - { name: node-${index}, url: "http://127.0.0.1:${simPort + index}" }`,
    ).join('\n');
    writeFileSync(join(dir, 'config.yaml'), `global: { interval: ${INTERVAL_S}s }\ntargets:\n${targets}\n`);
    const port = await freePort();
    const daemon = spawn(
      'node',
      [MAIN, `--config.file=${join(dir, 'config.yaml')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=info'],
      {
        stdio: ['ignore', 'inherit', 'pipe'],
      },
    );
    children.push(daemon);
    let log = '';
    daemon.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const origin = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${origin}/-/ready`)).status === 200, 300_000);

    // Scrape, plain and gzip in turn, for half an interval while collection runs.
    const slowest = { ms: 0 };
    let last = '';
    for (const deadline = Date.now() + 5500; Date.now() < deadline; ) {
      const gzip = Math.random() < 0.5;
      const started = performance.now();
      // undici's request() does not decompress: the gzip body is checked as sent.
      const response = await request(`${origin}/metrics`, { headers: gzip ? { 'accept-encoding': 'gzip' } : {} });
      const body = Buffer.from(await response.body.arrayBuffer());
      slowest.ms = Math.max(slowest.ms, performance.now() - started);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(gzip ? 'gzip' : undefined);
      last = (gzip ? gunzipSync(body) : body).toString();
    }
    // A scrape slower than a collection interval could not serve fresh data, whatever it returned;
    // the benchmark (bench/fleet-real.mjs) holds the real figures.
    expect(slowest.ms).toBeLessThan(INTERVAL_S * 1000);
    expect(last).toContain(`avaxmon_node_healthy{target="node-${NODES - 1}"} 1`);
    expect(lastSuccesses(last).length).toBeGreaterThanOrEqual(NODES);
    // Collection keeps up: a moment comes when no collector's last success is two intervals old (on a
    // loaded machine the first rounds may lag; a daemon that stopped collecting never gets there).
    await until(async () => {
      const text = await (await fetch(`${origin}/metrics`)).text();
      const nowSeconds = Date.now() / 1000;
      return lastSuccesses(text).every((seconds) => nowSeconds - seconds <= 2 * INTERVAL_S);
    }, 180_000);

    daemon.kill('SIGTERM');
    // 'close', not 'exit': the log is read next, and its last lines can arrive after the exit.
    const code = await new Promise((resolve) => daemon.once('close', resolve));
    expect(code).toBe(0);
    // Within the daemon's own stop deadline, past which it would exit 0 too, with a warning instead.
    expect(log).toContain('"msg":"Stopped cleanly"');
    expect(log).not.toContain('Stop did not finish in time');
    sim.kill();
  }, 420_000);
});
