import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { ConfigError } from '../../src/errors.js';
import { createLogger } from '../../src/runtime/log.js';
import { BcryptWorker } from '../../src/server/bcrypt-worker.js';
import { loadWebConfig } from '../../src/server/web-config.js';
import { captureStream } from '../helpers/stack.js';

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-web-'));
const file = (name: string) => join(dir, name);

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A real CA, a self-signed server certificate for 127.0.0.1, a client signed by the CA and a rogue one. */
function makeCertificates(): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=avaxmon test CA');
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'server.key',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  );
  openssl('req', ...ec, '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=prometheus');
  openssl('x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.crt', '-days', '1');
  openssl('req', '-x509', ...ec, '-keyout', 'rogue.key', '-out', 'rogue.crt', '-days', '1', '-subj', '/CN=rogue');
}

const read = (name: string) => readFileSync(file(name));

async function startDaemon(webConfigYaml: string): Promise<{ daemon: Daemon; port: number }> {
  const path = file(`web-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(path, webConfigYaml);
  const daemon = new Daemon({
    config: parseConfig('targets: []'),
    logger: createLogger('warn', 'json', captureStream([])),
    web: loadWebConfig(path),
  });
  await daemon.app.listen({ host: '127.0.0.1', port: 0 });
  return { daemon, port: (daemon.app.server.address() as { port: number }).port };
}

interface Client {
  cert?: Buffer;
  key?: Buffer;
  maxVersion?: 'TLSv1.2' | 'TLSv1.3';
}

async function get(port: number, path: string, options: { auth?: string; client?: Client } = {}) {
  const dispatcher = new Agent({ connect: { ca: read('server.crt'), ...options.client } });
  try {
    const response = await request(`https://127.0.0.1:${port}${path}`, {
      dispatcher,
      headers: options.auth ? { authorization: `Basic ${Buffer.from(options.auth).toString('base64')}` } : {},
    });
    return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
  } finally {
    await dispatcher.close();
  }
}

describe('--web.config.file', () => {
  beforeAll(() => makeCertificates());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('TLS with basic auth and headers', () => {
    let daemon: Daemon;
    let port: number;
    beforeAll(async () => {
      // Paths are relative to the web config file, as in exporter-toolkit.
      ({ daemon, port } = await startDaemon(`
tls_server_config:
  cert_file: server.crt
  key_file: server.key
  min_version: TLS13
basic_auth_users:
  prometheus: ${bcrypt.hashSync('s3cret-pass', 10)}
  grafana: ${bcrypt.hashSync('other-pass', 10)}
  cached: ${bcrypt.hashSync('cache-pass', 4)}
http_server_config:
  headers:
    X-Frame-Options: deny
    Strict-Transport-Security: max-age=31536000
`));
    });
    afterAll(() => daemon.app.close());

    it('answers the right password with 200 and the configured headers', async () => {
      expect((await get(port, '/metrics', { auth: 'prometheus:s3cret-pass' })).status).toBe(200);
      const response = await get(port, '/-/healthy', { auth: 'prometheus:s3cret-pass' });
      expect(response.status).toBe(200);
      expect(response.body).toBe('avaxmon is healthy.\n');
      expect(response.headers['x-frame-options']).toBe('deny');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    });

    it("answers a wrong password, an unknown user, another user's password and no credentials with 401", async () => {
      for (const auth of ['prometheus:wrong', 'nobody:s3cret-pass', 'prometheus:other-pass', 'prometheus', undefined]) {
        const response = await get(port, '/metrics', { auth });
        expect({ auth, status: response.status }).toEqual({ auth, status: 401 });
        expect(response.headers['www-authenticate']).toMatch(/^Basic/);
        expect(response.headers['x-frame-options']).toBe('deny');
        expect(response.body).toBe('Unauthorized\n');
      }
    });

    it('protects every endpoint, /-/healthy and /probe included, like exporter-toolkit', async () => {
      for (const path of ['/', '/-/healthy', '/-/ready', '/probe?target=x']) expect((await get(port, path)).status).toBe(401);
      expect((await get(port, '/-/healthy', { auth: 'grafana:other-pass' })).status).toBe(200);
    });

    it('caches a verified password instead of running bcrypt on every scrape', async () => {
      // Counted, not timed: the daemon's real bcrypt worker still answers each check.
      const compares = vi.spyOn(BcryptWorker.prototype, 'compare');
      try {
        for (let i = 0; i < 20; i++) expect((await get(port, '/-/healthy', { auth: 'cached:cache-pass' })).status).toBe(200);
        expect(compares).toHaveBeenCalledTimes(1);
        expect((await get(port, '/-/healthy', { auth: 'cached:wrong-pass' })).status).toBe(401);
        expect(compares).toHaveBeenCalledTimes(2);
      } finally {
        compares.mockRestore();
      }
    });

    it('refuses plain HTTP on the TLS port', async () => {
      await expect(fetch(`http://127.0.0.1:${port}/-/healthy`)).rejects.toThrow();
    });

    it('refuses clients below min_version', async () => {
      await expect(get(port, '/-/healthy', { auth: 'grafana:other-pass', client: { maxVersion: 'TLSv1.2' } })).rejects.toThrow(
        /version|protocol/i,
      );
    });
  });

  describe('client certificates', () => {
    it('RequireAndVerifyClientCert admits only certificates signed by client_ca_file', async () => {
      const { daemon, port } = await startDaemon(`
tls_server_config: { cert_file: server.crt, key_file: server.key, client_ca_file: ca.crt, client_auth_type: RequireAndVerifyClientCert }
`);
      try {
        expect((await get(port, '/-/healthy', { client: { cert: read('client.crt'), key: read('client.key') } })).status).toBe(200);
        await expect(get(port, '/-/healthy')).rejects.toThrow();
        await expect(get(port, '/-/healthy', { client: { cert: read('rogue.crt'), key: read('rogue.key') } })).rejects.toThrow();
      } finally {
        await daemon.app.close();
      }
    });

    it('VerifyClientCertIfGiven admits no certificate and a valid one, but not a rogue one', async () => {
      const { daemon, port } = await startDaemon(`
tls_server_config: { cert_file: server.crt, key_file: server.key, client_ca_file: ca.crt, client_auth_type: VerifyClientCertIfGiven }
`);
      try {
        expect((await get(port, '/-/healthy')).status).toBe(200);
        expect((await get(port, '/-/healthy', { client: { cert: read('client.crt'), key: read('client.key') } })).status).toBe(200);
        await expect(get(port, '/-/healthy', { client: { cert: read('rogue.crt'), key: read('rogue.key') } })).rejects.toThrow();
      } finally {
        await daemon.app.close();
      }
    });

    it('RequireAnyClientCert admits any certificate but not none', async () => {
      const { daemon, port } = await startDaemon(`
tls_server_config: { cert_file: server.crt, key_file: server.key, client_auth_type: RequireAnyClientCert }
`);
      try {
        expect((await get(port, '/-/healthy', { client: { cert: read('rogue.crt'), key: read('rogue.key') } })).status).toBe(200);
        await expect(get(port, '/-/healthy')).rejects.toThrow();
      } finally {
        await daemon.app.close();
      }
    });
  });

  describe('validation', () => {
    const invalid: Array<[string, RegExp]> = [
      ['tls_server_config: { cert_file: server.crt }', /tls_server_config\.key_file: /],
      [
        'tls_server_config: { cert_file: server.crt, key_file: server.key, cipher_suites: [x] }',
        /tls_server_config: Unrecognized key: "cipher_suites"/,
      ],
      ['tls_server_config: { cert_file: server.crt, key_file: server.key, min_version: TLS11 }', /min_version: must be TLS12 or TLS13/],
      [
        'tls_server_config: { cert_file: server.crt, key_file: server.key, client_auth_type: Sometimes }',
        /client_auth_type: must be one of NoClientCert/,
      ],
      [
        'tls_server_config: { cert_file: server.crt, key_file: server.key, client_ca_file: ca.crt }',
        /client_auth_type: client_ca_file is set/,
      ],
      [
        'tls_server_config: { cert_file: server.crt, key_file: server.key, client_auth_type: RequireAndVerifyClientCert }',
        /client_ca_file: is required/,
      ],
      ['tls_server_config: { cert_file: missing.crt, key_file: server.key }', /tls_server_config\.cert_file: cannot read missing\.crt/],
      ['tls_server_config: { cert_file: server.crt, key_file: rogue.key }', /cannot use cert_file, key_file/],
      ['basic_auth_users: { prometheus: plaintext-password }', /basic_auth_users\.prometheus: must be a bcrypt hash/],
      ['http_server_config: { headers: { X-Powered-By: me } }', /headers\."X-Powered-By": header cannot be configured/],
      ['http_server_config: { headers: { X-Content-Type-Options: sniff } }', /invalid value "sniff"/],
      ['tls_config: {}', /Unrecognized key: "tls_config"/],
    ];
    it.each(invalid)('%s', (yaml, message) => {
      const path = file('invalid.yml');
      writeFileSync(path, yaml);
      expect(() => loadWebConfig(path)).toThrow(ConfigError);
      expect(() => loadWebConfig(path)).toThrow(message);
    });

    it('names the file it cannot read', () => {
      expect(() => loadWebConfig(file('absent.yml'))).toThrow(/absent\.yml: cannot read web config file/);
    });
  });
});
