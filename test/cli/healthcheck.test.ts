import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { healthUrl } from '../../src/cli/healthcheck.js';
import { freePort } from '../helpers/ports.js';
import { eventually } from '../helpers/stack.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-healthcheck-'));
const configFile = join(dir, 'config.yaml');
let daemon: ChildProcess | undefined;

beforeAll(() => {
  // Any valid config: a target that never answers does not make the daemon unhealthy.
  writeFileSync(configFile, 'targets:\n  - name: absent\n    url: http://127.0.0.1:9\n');
  // A private CA, and a server certificate it signed, which also serves as the client certificate.
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=avaxmon test CA');
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=avaxmon');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '1');
});

afterEach(async () => {
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((resolve) => daemon!.once('exit', resolve));
    daemon.kill('SIGTERM');
    await exited;
  }
  daemon = undefined;
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function startDaemon(args: string[]): Promise<void> {
  daemon = spawn(process.execPath, [MAIN, `--config.file=${configFile}`, '--log.level=warn', ...args], { stdio: 'ignore' });
}

describe('avaxmon healthcheck', () => {
  it('exits 0 while the daemon on that listen address is healthy, 1 when nothing listens', async () => {
    const port = await freePort();
    expect((await run(['healthcheck', `--web.listen-address=127.0.0.1:${port}`])).code).toBe(1);
    await startDaemon([`--web.listen-address=127.0.0.1:${port}`]);
    await eventually(
      () => run(['healthcheck', `--web.listen-address=127.0.0.1:${port}`]),
      (result) => result.code === 0,
      60_000,
    );
  });

  it('follows --web.config.file: TLS with required client certificates, and basic auth', async () => {
    const webConfig = join(dir, 'web.yml');
    writeFileSync(
      webConfig,
      `tls_server_config:
  cert_file: server.crt
  key_file: server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt
basic_auth_users:
  prometheus: ${bcrypt.hashSync('pass', 4)}
`,
    );
    const port = await freePort();
    const flags = [`--web.listen-address=127.0.0.1:${port}`, `--web.config.file=${webConfig}`];
    await startDaemon(flags);
    const result = await eventually(
      () => run(['healthcheck', ...flags]),
      (outcome) => outcome.code === 0,
      60_000,
    );
    expect(result.stdout).toContain(`https://127.0.0.1:${port}/-/healthy: HTTP 401 (basic auth on: the daemon answers)`);
    // Without the web config, the same port speaks TLS to a plain-HTTP probe: not healthy.
    expect((await run(['healthcheck', `--web.listen-address=127.0.0.1:${port}`])).code).toBe(1);
  });

  it('reaches a daemon listening on every address (":PORT") over loopback', async () => {
    const port = await freePort();
    await startDaemon([`--web.listen-address=:${port}`]);
    await eventually(
      () => run(['healthcheck', `--web.listen-address=:${port}`]),
      (result) => result.code === 0,
      60_000,
    );
    // One dual-stack socket: IPv4 and IPv6 clients both reach it (where this host has IPv6 loopback).
    expect((await fetch(`http://127.0.0.1:${port}/-/healthy`)).status).toBe(200);
    if (await ipv6Loopback()) expect((await fetch(`http://[::1]:${port}/-/healthy`)).status).toBe(200);
    else console.warn('skipping the IPv6 half: this host has no ::1');
  });
});

function ipv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
}

describe('the healthcheck URL', () => {
  it('maps wildcard listen addresses to loopback and keeps explicit hosts', () => {
    expect(healthUrl(':9683', false)).toBe('http://127.0.0.1:9683/-/healthy');
    expect(healthUrl('0.0.0.0:9683', true)).toBe('https://127.0.0.1:9683/-/healthy');
    expect(healthUrl('[::]:9683', false)).toBe('http://127.0.0.1:9683/-/healthy');
    expect(healthUrl('[::1]:9683', false)).toBe('http://[::1]:9683/-/healthy');
    expect(healthUrl('10.0.0.7:9683', false)).toBe('http://10.0.0.7:9683/-/healthy');
  });
});
