import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTIONS_PER_ORIGIN, HttpClient } from '../../src/clients/http.js';
import { NotSentError } from '../../src/clients/not-sent-error.js';
import { until } from '../helpers/until.js';

describe('a request waiting for a connection', () => {
  let server: Server;
  let base: string;
  const held: ServerResponse[] = [];
  const client = new HttpClient({ maxResponseBytes: 1024 });

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/held') return void held.push(response);
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    server.close();
  });

  it('is timed from when it is sent: waiting longer than its timeout behind held calls does not fail it', async () => {
    const holding = Array.from({ length: CONNECTIONS_PER_ORIGIN }, () =>
      client.request({ url: `${base}/held`, timeoutMs: 60_000, upstream: 'node-a', operation: 'held' }),
    );
    await until(() => held.length === CONNECTIONS_PER_ORIGIN);
    const waits: number[] = [];
    const queued = client.request({
      url: `${base}/quick`,
      timeoutMs: 100,
      upstream: 'node-a',
      operation: 'quick',
      onQueueWait: (waitedMs) => waits.push(waitedMs),
    });
    // Never on the wire while every connection is taken, and held well past its 100 ms timeout.
    const queuedAt = performance.now();
    await until(() => performance.now() - queuedAt > 300);
    expect(waits).toEqual([]);
    for (const response of held.splice(0)) response.end('done');
    expect((await queued).text).toBe('ok');
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(300);
    await Promise.all(holding);
  });

  it("gives up unsent when the caller's signal ends the wait, without blaming the upstream", async () => {
    const holding = Array.from({ length: CONNECTIONS_PER_ORIGIN }, () =>
      client.request({ url: `${base}/held`, timeoutMs: 60_000, upstream: 'node-a', operation: 'held' }),
    );
    await until(() => held.length === CONNECTIONS_PER_ORIGIN);
    const run = new AbortController();
    const queued = client.request({ url: `${base}/quick`, timeoutMs: 1_000, upstream: 'node-a', operation: 'quick', signal: run.signal });
    run.abort(new DOMException('run deadline', 'TimeoutError'));
    const error = await queued.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotSentError);
    expect((error as Error).message).toMatch(/not sent, still waiting for a connection/);
    for (const response of held.splice(0)) response.end('done');
    await Promise.all(holding);
    // The slot it never took is not lost: a request right after is sent at once.
    expect((await client.request({ url: `${base}/quick`, timeoutMs: 1_000, upstream: 'node-a', operation: 'quick' })).text).toBe('ok');
  });
});
