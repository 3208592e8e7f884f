import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { freePort } from '../helpers/ports.js';
import { until } from '../helpers/until.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

describe('repeated --web.listen-address, as exporter-toolkit takes it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-listen-'));
  let sim: Simulator;
  let config: string;
  beforeAll(async () => {
    sim = await startSimulator();
    config = join(dir, 'config.yaml');
    writeFileSync(config, `global: { interval: 1s, timeout: 500ms }\ntargets: [{ name: a, url: "${sim.url}" }]\n`);
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves every route on each address and stops cleanly', async () => {
    const ports = [await freePort(), await freePort()];
    const daemon = spawn(
      process.execPath,
      [MAIN, `--config.file=${config}`, ...ports.map((port) => `--web.listen-address=127.0.0.1:${port}`)],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let log = '';
    daemon.stderr.on('data', (chunk: Buffer) => (log += chunk));
    const exited = new Promise<number | null>((resolve) => daemon.once('exit', resolve));
    try {
      await until(() => log.includes('avaxmon listening'), 30_000);
      expect(log).toContain(`"address":"127.0.0.1:${ports[0]}, 127.0.0.1:${ports[1]}"`);
      for (const port of ports) {
        expect((await fetch(`http://127.0.0.1:${port}/-/healthy`)).status).toBe(200);
        await until(
          async () => /^avaxmon_target_up\{target="a"\} 1$/m.test(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()),
          15_000,
        );
      }
      daemon.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      daemon.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses to start when one of them is taken, naming it in one line', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => holder.once('listening', resolve));
    const taken = (holder.address() as { port: number }).port;
    const free = await freePort();
    const daemon = spawn(
      process.execPath,
      [MAIN, `--config.file=${config}`, `--web.listen-address=127.0.0.1:${free}`, `--web.listen-address=127.0.0.1:${taken}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    daemon.stderr.on('data', (chunk: Buffer) => (log += chunk));
    // 'close', not 'exit': on a loaded machine the last log line can arrive after the exit.
    const code = await new Promise<number | null>((resolve) => daemon.once('close', resolve));
    holder.close();
    expect(code).toBe(1);
    const lines = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string });
    expect(lines.at(-1)!.msg).toContain('the address is already in use');
    expect(lines.at(-1)!.msg).toContain(`127.0.0.1:${taken}`);
  }, 60_000);

  it('holds each address to --web.max-connections, as Prometheus does, and says so once', async () => {
    const port = await freePort();
    const daemon = spawn(
      process.execPath,
      [MAIN, `--config.file=${config}`, `--web.listen-address=127.0.0.1:${port}`, '--web.max-connections=3'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let log = '';
    daemon.stderr.on('data', (chunk: Buffer) => (log += chunk));
    const idle: Socket[] = [];
    try {
      await until(() => log.includes('avaxmon listening'), 30_000);
      for (let index = 0; index < 3; index++) {
        const socket = connect(port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        idle.push(socket);
      }
      // Past the limit the daemon closes a new connection unanswered, whatever it asks.
      await until(async () => (await fetch(`http://127.0.0.1:${port}/-/healthy`).catch(() => undefined)) === undefined, 10_000);
      await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
      await until(() => log.includes('Connection limit reached'), 10_000);
      const warnings = log.split('\n').filter((line) => line.includes('Connection limit reached'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0])).toMatchObject({ level: 'warn', maxConnections: 3 });
      // A freed slot serves again: the limit bounds idle sockets, it does not lock the operator out.
      idle.pop()!.destroy();
      await until(async () => (await fetch(`http://127.0.0.1:${port}/-/healthy`).catch(() => undefined))?.status === 200, 10_000);
    } finally {
      for (const socket of idle) socket.destroy();
      daemon.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses a --web.max-connections that is not a whole number, naming the flag', async () => {
    const daemon = spawn(process.execPath, [MAIN, `--config.file=${config}`, '--web.max-connections=lots'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    daemon.stderr.on('data', (chunk: Buffer) => (log += chunk));
    // 'close', not 'exit': on a loaded machine the last log line can arrive after the exit.
    const code = await new Promise<number | null>((resolve) => daemon.once('close', resolve));
    expect(code).toBe(2);
    expect(log).toContain('--web.max-connections must be a whole number');
  }, 30_000);
});
