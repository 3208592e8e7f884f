import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-errors-'));
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

/** Runs the CLI without blocking this process, which serves the simulator. */
function run(...args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })));
}

function configWith(url: string): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `targets: [{ name: node, url: "${url}" }]\n`);
  return file;
}

describe('errors a person understands', () => {
  it('a port in use: one line naming the address and the flag, no stack trace', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => holder.once('listening', resolve));
    const address = `127.0.0.1:${(holder.address() as { port: number }).port}`;
    const result = await run(`--config.file=${configWith(sim.url)}`, `--web.listen-address=${address}`, '--log.level=error');
    holder.close();
    expect(result.status).toBe(1);
    // One log line, on stderr like every other: the log's stream and format.
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stderr).msg).toContain(`Cannot listen on ${address}: the address is already in use`);
    expect(result.stderr).toContain('--web.listen-address');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('https:// against a plain-HTTP node says to use http://, not an OpenSSL record', async () => {
    const result = await run('collect', `--config.file=${configWith(sim.url.replace('http://', 'https://'))}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the server answered plain HTTP to an https:// URL');
    expect(result.stderr).toContain('use http://');
    expect(result.stderr).not.toContain('SSL routines');
  });

  it('a mistyped scenario lists the built-in ones, without a stack trace', async () => {
    const result = await run('simulate', '--port=0', '--scenario=demoo');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('avaxmon: --scenario: no scenario "demoo" (built in: demo; or a path to a YAML file)\n');
  });
});
