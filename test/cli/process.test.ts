import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { STOP_GRACE_MS } from '../../src/daemon/daemon.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { eventually, parseExposition, valueOf } from '../helpers/stack.js';

// These tests run the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-cli-'));

function writeConfig(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('check-config', () => {
  it('exits 0 on a valid config', () => {
    const file = writeConfig('good.yaml', 'targets: [{ name: a, url: "http://127.0.0.1:9650" }]\n');
    const result = spawnSync('node', [MAIN, 'check-config', file], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('OK (1 target(s))');
  });

  it('exits 2 and prints one line per bad path', () => {
    const file = writeConfig('bad.yaml', 'global: { interval: never }\ntargets: [{ name: a, url: "ftp://x" }]\n');
    const result = spawnSync('node', [MAIN, 'check-config', file], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n').sort()).toEqual([
      'global.interval: must be a duration like 500ms, 15s, 1m or 1h (got "never")',
      'targets[0].url: must be an http(s) URL',
    ]);
  });

  it('the daemon exits 2 at start-up on the same errors', () => {
    const file = writeConfig('bad2.yaml', 'targets: [{ name: a, url: "ftp://x" }]\n');
    const result = spawnSync('node', [MAIN, `--config.file=${file}`, '--web.listen-address=127.0.0.1:0'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('targets[0].url: must be an http(s) URL');
  });

  it('test-alert without --receiver says what is missing', () => {
    const result = spawnSync('node', [MAIN, 'test-alert'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('test-alert needs --receiver NAME');
  });

  it('prints --version and --help', () => {
    // The revision `npm run build` recorded from the checkout (the image passes its REVISION instead).
    const revision = spawnSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], { encoding: 'utf8' }).stdout.trim();
    expect(spawnSync('node', [MAIN, '--version'], { encoding: 'utf8' }).stdout).toBe(
      `avaxmon ${JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version} (revision ${revision}, node ${process.version})\n`,
    );
    const help = spawnSync('node', [MAIN, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const flag of ['--config.file', '--web.listen-address', '--log.level', '--log.format']) expect(help.stdout).toContain(flag);
  });
});

describe('the daemon process', () => {
  let sim: Simulator;
  let daemon: ChildProcess;
  let base: string;
  let configFile: string;
  const output: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator();
    process.env.AVAXMON_TEST_TOKEN = 'sekrit-token-value';
    configFile = writeConfig(
      'run.yaml',
      `global: { interval: 1s, timeout: 1s }\ntargets: [{ name: a, url: "${sim.url}", headers: { Authorization: "Bearer \${AVAXMON_TEST_TOKEN}" } }]\n`,
    );
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    daemon = spawn('node', [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=debug'], {
      env: { ...process.env },
    });
    daemon.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    daemon.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await eventually(
      async () => (await fetch(`${base}/-/ready`).catch(() => undefined))?.status,
      (status) => status === 200,
      60_000,
    );
  });
  afterAll(async () => {
    daemon.kill('SIGKILL');
    await sim.close();
  });

  it('is healthy and ready, and lists the target on the status page without secrets', async () => {
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
    const page = await (await fetch(`${base}/`)).text();
    expect(page).toContain('<td>a</td>');
    expect(page).toContain('health');
    expect(page).not.toContain('sekrit-token-value');
    // The build recorded the commit it came from (dist/revision.txt), "-dirty" when built from edits.
    const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    expect(page).toMatch(new RegExp(`\\(${head}(-dirty)?\\)`));
    expect(page).not.toContain('(unknown)');
  });

  it('keeps the running config on a bad reload, reports it, then accepts a good one (SIGHUP and POST /-/reload)', async () => {
    const good = `global: { interval: 1s, timeout: 1s }\ntargets: [{ name: a, url: "${sim.url}" }]\n`;
    writeFileSync(configFile, 'targets: [{ name: a, url: "nope" }]\n');
    daemon.kill('SIGHUP');
    let samples = await eventually(
      async () => parseExposition(await (await fetch(`${base}/metrics`)).text()),
      (s) => valueOf(s, 'avaxmon_config_last_reload_successful') === 0,
    );
    expect(valueOf(samples, 'avaxmon_collector_success', { target: 'a', collector: 'health' })).toBe(1);
    expect(output.join('')).toContain('targets[0].url: must be an http(s) URL');
    const rejected = await fetch(`${base}/-/reload`, { method: 'POST' });
    expect(rejected.status).toBe(500);
    expect(await rejected.text()).toContain('targets[0].url: must be an http(s) URL');
    writeFileSync(configFile, good.replace('name: a', 'name: b'));
    expect((await fetch(`${base}/-/reload`, { method: 'POST' })).status).toBe(200);
    samples = await eventually(
      async () => parseExposition(await (await fetch(`${base}/metrics`)).text()),
      (s) => valueOf(s, 'avaxmon_node_peers', { target: 'b' }) === 60,
    );
    expect(valueOf(samples, 'avaxmon_config_last_reload_successful')).toBe(1);
    expect(samples.filter((sample) => sample.labels.target === 'a')).toEqual([]);
  });

  it('never logs the header secret', () => {
    expect(output.join('')).not.toContain('sekrit-token-value');
  });

  it('exits 0 on SIGTERM after draining', async () => {
    // 'close', not 'exit': the log is read next, and its last lines can arrive after the exit.
    const exited = new Promise<number | null>((resolve) => daemon.once('close', resolve));
    daemon.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output.join('')).toContain('Stopped cleanly');
  });
});

describe('start-up and shutdown bounds', () => {
  it('exits 2 with the path when alerts.state_dir is unusable, before listening', () => {
    const plainFile = writeConfig('not-a-dir', 'x');
    const file = writeConfig(
      'bad-state.yaml',
      `targets: [{ name: a, url: "http://127.0.0.1:9" }]\nalerts: { state_dir: ${plainFile}/data }\n`,
    );
    const result = spawnSync('node', [MAIN, `--config.file=${file}`, '--web.listen-address=127.0.0.1:0'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/alerts\.state_dir: cannot use .*not-a-dir\/data as a writable directory: ENOTDIR/);
    expect(result.stderr).not.toContain('avaxmon listening');
  });

  it('on SIGTERM, cancels a collection still running after the grace period and exits 0 cleanly', async () => {
    const sim = await startSimulator();
    // A node that never answers info.peers: the run would otherwise hold shutdown for its 55 s timeout.
    const node = await holdingNode(sim.url, 'info.peers');
    const file = writeConfig('slow.yaml', `global: { interval: 1m, timeout: 55s }\ntargets: [{ name: a, url: "${node.url}" }]\n`);
    const port = await freePort();
    const child = spawn('node', [MAIN, `--config.file=${file}`, `--web.listen-address=127.0.0.1:${port}`], {
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    // 'close', not 'exit': the log is read once it exits, and its last lines can arrive after the exit.
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      await eventually(
        async () => node.heldSinceMs,
        (since) => since !== undefined,
        60_000,
      );
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // The daemon closed the held request itself, after the grace period: cancelled, not abandoned,
      // and done before the stop deadline (whose warning would still exit 0).
      expect(node.closedAtMs).toBeGreaterThanOrEqual(signalledAt + STOP_GRACE_MS);
      expect(log).toContain('"msg":"Stopped cleanly"');
      expect(log).not.toContain('Stop did not finish in time');
      expect(log).not.toContain('abandoned');
    } finally {
      child.kill('SIGKILL');
      await node.close();
      await sim.close();
    }
  }, 180_000);
});

interface HoldingNode {
  readonly url: string;
  /** When the held call arrived; undefined until it has. */
  readonly heldSinceMs: number | undefined;
  /** When the client closed the held call (the node never answers it). */
  readonly closedAtMs: number | undefined;
  close(): Promise<void>;
}

/** The simulated node at `upstream`, except that JSON-RPC `method` is held open and never answered. */
async function holdingNode(upstream: string, method: string): Promise<HoldingNode> {
  const node = { heldSinceMs: undefined as number | undefined, closedAtMs: undefined as number | undefined };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (body.includes(`"${method}"`)) {
      node.heldSinceMs = Date.now();
      response.once('close', () => (node.closedAtMs = Date.now()));
      return;
    }
    const answer = await fetch(`${upstream}${request.url}`, {
      method: request.method,
      headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : body,
    });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get heldSinceMs() {
      return node.heldSinceMs;
    },
    get closedAtMs() {
      return node.closedAtMs;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
