import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/clients/http.js';
import { UpstreamError } from '../../src/errors.js';

/**
 * A node on a thread of its own, so it answers while the test's event loop is stalled: /answer after
 * 50 ms with a Mainnet-sized peers body (more than a socket buffer holds), /hang never.
 */
const NODE = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
const body = JSON.stringify({ result: { peers: Array.from({ length: 1800 }, (_, i) => ({ nodeID: 'NodeID-' + i, ip: '10.0.0.1:9651', version: 'avalanchego/1.15.0', observedUptime: '100'.repeat(60) })) } });
const server = createServer((request, response) => {
  if (request.url === '/hang') return;
  setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(body), 50);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

/** What a pegged core, a long GC or a throttled container does to the daemon: nothing runs for `ms`. */
function stallEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a request whose timeout falls due while avaxmon’s own event loop is stalled', () => {
  let node: Worker;
  let base: string;
  const client = new HttpClient({ maxResponseBytes: 10_000_000 });

  beforeAll(async () => {
    node = new Worker(NODE, { eval: true });
    const port = await new Promise<number>((resolve) => node.once('message', resolve));
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await client.close();
    await node.terminate();
  });

  it('gets the answer that arrived during the stall: the node is not blamed for a timeout', async () => {
    const answer = client.request({ url: `${base}/answer`, timeoutMs: 300, upstream: 'node-a', operation: 'info.peers' });
    await sleep(20); // the request is on the wire
    stallEventLoop(1_000); // the node answers 50 ms in; the timeout falls due at 300 ms
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.text.length).toBeGreaterThan(400_000);
  });

  it('still times out a hung node, within twice its timeout of the resumed loop, and says the stall was ours', async () => {
    const hung = client.request({ url: `${base}/hang`, timeoutMs: 300, upstream: 'node-a', operation: 'info.peers' });
    hung.catch(() => undefined);
    await sleep(20);
    stallEventLoop(1_000);
    const resumedMs = performance.now();
    const error = await hung.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).outcome).toBe('timeout');
    expect((error as Error).message).toMatch(
      /^node-a info\.peers: timed out after 300ms \(and 300ms more while avaxmon's event loop was stalled\)$/,
    );
    // The extra wait is bounded by the timeout, however long the stall: a hung node is still found.
    expect(performance.now() - resumedMs).toBeLessThan(2_000);
  });
});
