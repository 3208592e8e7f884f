import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { loadWebConfig } from '../../src/server/web-config.js';
import { watchWebConfig } from '../../src/server/web-config-watch.js';
import { eventually } from '../helpers/stack.js';

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-web-watch-'));
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
let daemon: Daemon;
let port: number;
let stopWatching: () => void;

/** A fresh self-signed certificate for 127.0.0.1, written next to the web config (atomically). */
function issueCertificate(name: string): void {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '1',
    '-subj',
    `/CN=${name}`,
  );
  renameSync(join(dir, `${name}.key`), join(dir, 'tls.key'));
  renameSync(join(dir, `${name}.crt`), join(dir, 'tls.crt'));
}

/** The common name of the certificate the server presents to a new connection. */
function servedCommonName(): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(String(socket.getPeerCertificate().subject.CN));
      socket.end();
    });
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  issueCertificate('first');
  const webConfigFile = join(dir, 'web.yml');
  writeFileSync(webConfigFile, 'tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n');
  const logger = createLogger('error');
  daemon = new Daemon({ config: parseConfig('targets: []\n', { env: {} }), logger, web: loadWebConfig(webConfigFile) });
  await daemon.app.listen({ host: '127.0.0.1', port: 0 });
  port = (daemon.app.server.address() as { port: number }).port;
  stopWatching = watchWebConfig(webConfigFile, daemon.app, logger, 50);
});

afterAll(async () => {
  stopWatching();
  await daemon.app.close();
  await daemon.stop();
});

describe('--web.config.file watching', () => {
  it('serves a rotated certificate to new connections without a restart', async () => {
    expect(await servedCommonName()).toBe('first');
    issueCertificate('rotated');
    await eventually(servedCommonName, (name) => name === 'rotated', 60_000);
  });

  it('keeps the running certificate when the new files are broken', async () => {
    writeFileSync(join(dir, 'tls.crt'), 'not a certificate\n');
    // Give the watcher its chance to see the broken file, then rotate to a good one: it must still serve.
    await eventually(servedCommonName, (name) => name === 'rotated', 1_000).catch(() => undefined);
    expect(await servedCommonName()).toBe('rotated');
    issueCertificate('third');
    await eventually(servedCommonName, (name) => name === 'third', 60_000);
  });
});
