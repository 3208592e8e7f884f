import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/clients/http.js';
import { parseConfig } from '../../src/config/load.js';
import { transportsOf } from '../../src/config/transports.js';
import type { HttpTransport } from '../../src/config/http-config-schema.js';
import { issuesOf } from '../helpers/config-issues.js';
import { scrubSecrets } from '../../src/config/redact.js';

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-transport-'));
const file = (name: string) => join(dir, name);
let tlsNode: HttpsServer;
let plainNode: HttpServer;
let proxy: HttpServer;
let tlsPort: number;
let plainPort: number;
let proxyUrl: string;
/** host:port of every CONNECT the proxy tunnelled. */
const tunnelled: string[] = [];
const clients: HttpClient[] = [];

beforeAll(async () => {
  // A private CA; the node's certificate names node.internal only (not 127.0.0.1), and a client certificate.
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=private CA');
  writeFileSync(file('san.ext'), 'subjectAltName=DNS:node.internal\n');
  openssl('req', ...ec, '-keyout', 'node.key', '-out', 'node.csr', '-subj', '/CN=node.internal');
  openssl(
    'x509',
    '-req',
    '-in',
    'node.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'node.crt',
    '-days',
    '1',
    '-extfile',
    'san.ext',
  );
  openssl('req', ...ec, '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=avaxmon');
  openssl('x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.crt', '-days', '1');
  const read = (name: string) => readFileSync(file(name));

  // The node answers 200 to a verified client certificate and 401 without one.
  tlsNode = createHttpsServer(
    { key: read('node.key'), cert: read('node.crt'), ca: read('ca.crt'), requestCert: true, rejectUnauthorized: false },
    (request, response) => {
      response.writeHead((request.socket as TLSSocket).authorized ? 200 : 401).end('tls node');
    },
  );
  plainNode = createHttpServer((_request, response) => response.writeHead(200).end('plain node'));
  // A CONNECT proxy, as corporate proxies and squid answer HTTPS_PROXY clients.
  proxy = createHttpServer((_request, response) => response.writeHead(405).end());
  proxy.on('connect', (request, clientSocket: Socket, head: Buffer) => {
    tunnelled.push(request.url!);
    const [host, port] = request.url!.split(':');
    const upstream = connect(Number(port), host === 'node.internal' ? '127.0.0.1' : host, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  const listen = (server: HttpServer | HttpsServer) =>
    new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  [tlsPort, plainPort] = await Promise.all([listen(tlsNode), listen(plainNode)]);
  proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  tunnelled.length = 0;
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY']) delete process.env[name];
});

afterAll(async () => {
  for (const server of [tlsNode, plainNode, proxy]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Loads tls_config / proxy_url the way the daemon does: from a config, into transports by origin. */
function transportsFor(http: string): Map<string, HttpTransport> {
  return transportsOf(parseConfig(`targets:\n  - name: node\n    url: https://127.0.0.1:${tlsPort}\n${http}`, { env: {} }));
}

async function get(url: string, transports: Map<string, HttpTransport> = new Map()) {
  const client = new HttpClient({ maxResponseBytes: 1024, transports });
  clients.push(client);
  return client.request({ url, timeoutMs: 3000, upstream: 'node', operation: 'GET /' }).then(
    (response) => `HTTP ${response.status}`,
    (error: Error) => error.message,
  );
}

describe('tls_config toward a node with a private CA', () => {
  const node = () => `https://127.0.0.1:${tlsPort}/`;

  it('without it, the private certificate is refused', async () => {
    expect(await get(node())).toMatch(/certificate/);
  });

  it('ca_file and server_name verify the node; cert_file and key_file give the client certificate it requires', async () => {
    const tls = `    tls_config: { ca_file: ${file('ca.crt')}, server_name: node.internal, cert_file: ${file('client.crt')}, key_file: ${file('client.key')} }\n`;
    expect(await get(node(), transportsFor(tls))).toBe('HTTP 200');
    const noClientCert = `    tls_config: { ca_file: ${file('ca.crt')}, server_name: node.internal }\n`;
    expect(await get(node(), transportsFor(noClientCert))).toBe('HTTP 401');
  });

  it('without server_name the name check fails (the certificate names node.internal, not 127.0.0.1)', async () => {
    expect(await get(node(), transportsFor(`    tls_config: { ca_file: ${file('ca.crt')} }\n`))).toMatch(/altnames|node\.internal/i);
  });

  it('insecure_skip_verify accepts any certificate', async () => {
    expect(await get(node(), transportsFor('    tls_config: { insecure_skip_verify: true }\n'))).toBe('HTTP 401');
  });

  it('names the field of a file that cannot be read, and wants cert_file with key_file', () => {
    const issues = issuesOf(
      `targets: [{ name: n, url: "http://127.0.0.1:9650", tls_config: { ca_file: ${file('missing.crt')}, cert_file: ${file('client.crt')} } }]`,
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        `targets[0].tls_config.ca_file: cannot read ${file('missing.crt')}: ENOENT`,
        'targets[0].tls_config.key_file: cert_file and key_file go together',
      ]),
    );
  });
});

describe('proxies', () => {
  it('proxy_url tunnels the requests of that upstream, TLS to the node included', async () => {
    const tls = `    proxy_url: ${proxyUrl}\n    tls_config: { ca_file: ${file('ca.crt')}, server_name: node.internal, cert_file: ${file('client.crt')}, key_file: ${file('client.key')} }\n`;
    expect(await get(`https://127.0.0.1:${tlsPort}/`, transportsFor(tls))).toBe('HTTP 200');
    expect(tunnelled).toEqual([`127.0.0.1:${tlsPort}`]);
  });

  it('HTTP_PROXY / HTTPS_PROXY from the environment apply without proxy_url, and NO_PROXY exempts hosts', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    process.env.NO_PROXY = 'localhost';
    expect(await get(`http://127.0.0.1:${plainPort}/`)).toBe('HTTP 200');
    expect(tunnelled).toEqual([`127.0.0.1:${plainPort}`]);
    expect(await get(`http://localhost:${plainPort}/`)).toBe('HTTP 200');
    expect(tunnelled).toHaveLength(1);
  });

  it("a proxy_url's password is a secret: redacted from logs and the status page", () => {
    transportsFor('    proxy_url: http://avaxmon:pr0xy-pa55word@proxy.internal:3128\n');
    expect(scrubSecrets('connecting through http://avaxmon:pr0xy-pa55word@proxy.internal:3128')).not.toContain('pr0xy-pa55word');
  });

  it('a proxy that cannot be reached is an error naming the upstream, not a hang', async () => {
    const transports = new Map([[`http://127.0.0.1:${plainPort}`, { proxyUrl: 'http://127.0.0.1:1' }]]);
    expect(await get(`http://127.0.0.1:${plainPort}/`, transports)).toMatch(/^node GET \/: .*(ECONNREFUSED|refused)/i);
  });
});
