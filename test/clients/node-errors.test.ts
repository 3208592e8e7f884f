import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeClient } from '../../src/clients/avalanchego.js';
import { HttpClient } from '../../src/clients/http.js';
import { gorillaAnswer } from '../../src/clients/jsonrpc.js';
import { UpstreamError } from '../../src/errors.js';
import { SelfMetrics } from '../../src/metrics/self-metrics.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { parseConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/runtime/log.js';
import { renderStatusPage } from '../../src/server/routes/status.js';

// A real server answering like a web server that is not AvalancheGo (/web: 404 everywhere, with and
// without a body), like a node whose API says it is disabled (/disabled), and as BODIES says below.
const PEER = {
  ip: '198.51.100.1:9651',
  nodeID: 'NodeID-A',
  version: 'avalanchego/1.14.2',
  observedUptime: '99',
  supportedACPs: [23, 24],
  benched: [],
};
const ANSWER = gorillaAnswer({ numPeers: true, peers: [{ nodeID: true, observedUptime: true }] });

/** Each path answers one way: a real node's answer, and what nodes and gateways send instead. */
const BODIES: Record<string, { status: number; body: string }> = {
  '/ok': { status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: { numPeers: '1', peers: [PEER] }, id: 1 }) },
  '/rpc-error': {
    status: 200,
    body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'the info API is disabled' }, id: 1 }),
  },
  '/result-and-error': {
    status: 200,
    body: JSON.stringify({ jsonrpc: '2.0', result: { numPeers: '1', peers: [] }, error: { code: -32000, message: 'boom' }, id: 1 }),
  },
  '/truncated': { status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: { numPeers: '1', peers: [PEER] } }).slice(0, 60) },
  '/html': { status: 502, body: '<html><body>502 Bad Gateway</body></html>' },
  '/no-result': { status: 200, body: '{"jsonrpc":"2.0","id":1}' },
  '/not-object': { status: 200, body: '[1,2]' },
};

let server: Server;
let base: string;
const http = new HttpClient({ maxResponseBytes: 1024 * 1024 });

beforeAll(async () => {
  server = createServer((request, response) => {
    const answer = BODIES[request.url!.replace(/\/ext\/info$/, '')];
    if (answer) return response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    if (request.url!.startsWith('/web')) return response.writeHead(404).end('404 page not found\n');
    if (request.url!.startsWith('/empty')) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'the admin API is disabled', data: null } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await http.close();
  await new Promise((resolve) => server.close(resolve));
});

function client(prefix: string): NodeClient {
  return new NodeClient(http, new SelfMetrics({ version: 't', revision: 't' }), {
    target: 'n',
    baseUrl: `${base}${prefix}`,
    headers: {},
    timeoutMs: 2000,
  });
}

const messageOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: Error) => error.message,
  );

describe('errors that tell "not AvalancheGo" from "API disabled"', () => {
  it('a 404 is "not an AvalancheGo API" with the path, and the body only when there is one', async () => {
    expect(await messageOf(client('/web').call('/ext/info', 'info.getNodeID'))).toBe(
      'n info.getNodeID: not an AvalancheGo API (HTTP 404 at /ext/info): 404 page not found',
    );
    const empty = await messageOf(client('/empty').call('/ext/info', 'info.getNodeID'));
    expect(empty).toBe('n info.getNodeID: not an AvalancheGo API (HTTP 404 at /ext/info)');
    expect(empty).not.toContain('()');
    expect(await messageOf(client('/web').getHealth('/ext/health/readiness'))).toBe(
      'n GET /ext/health/readiness: not an AvalancheGo API (HTTP 404 at /ext/health/readiness)',
    );
  });

  it('a node that says its API is disabled is reported as "API disabled on the node"', async () => {
    expect(await messageOf(client('/disabled').call('/ext/admin', 'admin.getLoggerLevel'))).toBe(
      'n admin.getLoggerLevel: API disabled on the node: JSON-RPC error -32000: the admin API is disabled',
    );
  });
});

describe('the status page for a target that answers HTTP but is not AvalancheGo', () => {
  it('shows it failing, not up, once its collectors have run', async () => {
    const config = parseConfig(`global: { interval: 5s, timeout: 2s }\ntargets: [{ name: web, url: "${base}/web" }]\n`, { env: {} });
    const daemon = new Daemon({ config, logger: createLogger('error') });
    try {
      await daemon.start();
      const targetsTable = renderStatusPage(daemon, { detailed: true }).split('<h2>Collectors</h2>')[0];
      expect(targetsTable).toContain('<span class="badge bad">failing</span>');
      expect(targetsTable).not.toContain('>up<');
    } finally {
      await daemon.stop();
    }
  });
});

async function failure(call: Promise<unknown>): Promise<UpstreamError> {
  return call.then(
    () => expect.fail('the call succeeded'),
    (error: unknown) => error as UpstreamError,
  );
}

describe('NodeClient.callProjected: an answer read for the fields used', () => {
  it('gives the projected fields of result and nothing else', async () => {
    const result = await client('/ok').callProjected('/ext/info', 'info.peers', {}, ANSWER);
    expect(result).toStrictEqual({ numPeers: '1', peers: [{ nodeID: 'NodeID-A', observedUptime: '99' }] });
  });

  it.each(['/rpc-error', '/result-and-error', '/truncated', '/html', '/no-result', '/not-object'])(
    '%s: fails as call() does, with the same outcome and words',
    async (path) => {
      const projected = await failure(client(path).callProjected('/ext/info', 'info.peers', {}, ANSWER));
      const whole = await failure(client(path).call('/ext/info', 'info.peers'));
      expect(projected).toBeInstanceOf(UpstreamError);
      expect(projected.message).toMatch(/^n info\.peers: /);
      expect({ outcome: projected.outcome, message: projected.message }).toEqual({ outcome: whole.outcome, message: whole.message });
    },
  );

  it("passes on a reader's own error as it is: a bug in a reader is not a transport failure", async () => {
    const bug = new TypeError('a reader bug');
    const error = await failure(
      http.requestBytes({ url: `${base}/ok/ext/info`, timeoutMs: 2000, upstream: 'n', operation: 'info.peers' }, () => {
        throw bug;
      }),
    );
    expect(error).toBe(bug);
  });
});
