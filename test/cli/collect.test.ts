import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { parseExposition, valueOf } from '../helpers/stack.js';
import { freePort } from '../helpers/ports.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-collect-'));
let sim: Simulator;
let notAvalanche: Server;
let notAvalancheUrl: string;

beforeAll(async () => {
  sim = await startSimulator();
  // Any web server that is not AvalancheGo: every path is a 404.
  notAvalanche = createServer((_request, response) => response.writeHead(404).end('404 page not found'));
  await new Promise<void>((resolve) => notAvalanche.listen(0, '127.0.0.1', resolve));
  notAvalancheUrl = `http://127.0.0.1:${(notAvalanche.address() as { port: number }).port}`;
});
afterAll(async () => {
  await sim.close();
  await new Promise((resolve) => notAvalanche.close(resolve));
});

let configs = 0;

/** Runs the CLI without blocking this process's event loop, which serves the simulator. */
function collect(config: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const file = join(dir, `config-${configs++}.yaml`);
  writeFileSync(file, config);
  const child = spawn(process.execPath, [MAIN, 'collect', `--config.file=${file}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

describe('avaxmon collect', () => {
  it('runs every collector once, prints the exposition to stdout and exits 0 when all succeed', async () => {
    const result = await collect(`targets: [{ name: good, url: "${sim.url}" }]\n`);
    expect(result.status, result.stderr).toBe(0);
    const samples = parseExposition(result.stdout);
    expect(valueOf(samples, 'avaxmon_target_up', { target: 'good' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_node_healthy', { target: 'good' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_collector_success', { target: 'good', collector: 'peers' })).toBe(1);
    // A healthy node logs no error: the C-Chain's missing subnet-EVM methods are normal, said at debug only.
    expect(result.stderr.split('\n').filter((line) => line.includes('"err"') || line.includes('eth_feeConfig'))).toEqual([]);
    expect(result.stdout).toContain('# TYPE avaxmon_node_healthy gauge');
  });

  it('exits 1 and names each failed collector on stderr; the metrics still go to stdout', async () => {
    const result = await collect(`targets: [{ name: good, url: "${sim.url}" }, { name: web, url: "${notAvalancheUrl}" }]\n`);
    expect(result.status).toBe(1);
    const failed = logLines(result.stderr).filter((line) => line.msg === 'Collection failed');
    expect(failed.find((line) => line.collector === 'node_info')).toMatchObject({
      target: 'web',
      err: { message: expect.stringMatching(/not an AvalancheGo API \(HTTP 404 at \/ext\/info\)/) },
    });
    expect(failed.filter((line) => line.target === 'good')).toEqual([]);
    const samples = parseExposition(result.stdout);
    expect(valueOf(samples, 'avaxmon_collector_success', { target: 'web', collector: 'node_info' })).toBe(0);
    expect(valueOf(samples, 'avaxmon_collector_success', { target: 'good', collector: 'node_info' })).toBe(1);
  });

  it('says once that an unreachable target is unreachable, not once per collector, chain and call', async () => {
    const result = await collect(`targets: [{ name: gone, url: "http://127.0.0.1:${await freePort()}" }]\n`);
    expect(result.status).toBe(1);
    const lines = logLines(result.stderr);
    expect(lines.map((line) => line.msg)).toEqual(['Target unreachable; its collectors stay quiet until it answers']);
    expect(lines[0]).toMatchObject({ level: 'warn', target: 'gone', err: { message: expect.stringContaining('ECONNREFUSED') } });
    const samples = parseExposition(result.stdout);
    expect(valueOf(samples, 'avaxmon_target_up', { target: 'gone' })).toBe(0);
    // Not even a collector with nothing to ask (no L1 configured) reads as succeeding on it.
    const success = samples.filter((sample) => sample.name === 'avaxmon_collector_success' && sample.labels.target === 'gone');
    expect(success.map((sample) => sample.labels.collector)).toContain('l1_validators');
    expect(success.filter((sample) => sample.value !== 0)).toEqual([]);
  });

  it('--target runs only that target; an unknown name is a usage error naming the known ones', async () => {
    const config = `targets: [{ name: good, url: "${sim.url}" }, { name: web, url: "${notAvalancheUrl}" }]\n`;
    const only = await collect(config, '--target', 'good');
    expect(only.status, only.stderr).toBe(0);
    expect(valueOf(parseExposition(only.stdout), 'avaxmon_target_up', { target: 'web' })).toBeUndefined();
    const unknown = await collect(config, '--target', 'nope');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no target named "nope" in the config (known: good, web)');
  });
});

function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
