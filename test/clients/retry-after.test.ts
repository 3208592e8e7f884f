import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/clients/http.js';
import { RestApiClient } from '../../src/clients/rest-api.js';
import { retryAfterMs } from '../../src/clients/retry-after.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP dates, and ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(' 7 ', now)).toBe(7000);
    expect(retryAfterMs(['3', '9'], now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('public REST API client', () => {
  it('waits out the Retry-After of a 503 as it does for a 429, then succeeds', async () => {
    const arrivals: number[] = [];
    const server = createServer((_request, response) => {
      arrivals.push(Date.now());
      if (arrivals.length === 1)
        response.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"message":"maintenance"}');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = new HttpClient({ maxResponseBytes: 65_536 });
    cleanups.push(async () => {
      await http.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const client = new RestApiClient(
      http,
      { recordRequest: () => undefined },
      {
        api: 'data_api',
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        headers: {},
        timeoutMs: 2000,
        maxRequestsPerRun: 5,
        requestSpacingMs: 0,
        maxRetryWaitMs: 5000,
      },
    );
    const body = await client.getJson({ route: 'GET /v1/test', path: 'v1/test', signal: AbortSignal.timeout(5000) });
    expect(body).toEqual({ ok: true });
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(950);
  });
});
