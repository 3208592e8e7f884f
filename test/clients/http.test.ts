import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/clients/http.js';
import { UpstreamError } from '../../src/errors.js';

describe('HttpClient', () => {
  let server: Server;
  let base: string;
  const client = new HttpClient({ maxResponseBytes: 1024 });

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/huge') return void response.end('x'.repeat(10_000));
      if (request.url === '/stalled-body') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.write('{"partial":');
      }
      if (request.url === '/auth') return void response.end(request.headers.authorization ?? 'none');
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

  const request = (path: string, timeoutMs = 1000) =>
    client.request({ url: `${base}${path}`, timeoutMs, upstream: 'node-a', operation: 'GET test' });

  it('caps the body size and names the upstream', async () => {
    const error = await request('/huge').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).outcome).toBe('bad_body');
    expect((error as Error).message).toBe('node-a GET test: response body exceeds 1024 bytes');
  });

  it('times out a body that stops arriving', async () => {
    const started = Date.now();
    const error = (await request('/stalled-body', 300).catch((caught: unknown) => caught)) as UpstreamError;
    expect(error.outcome).toBe('timeout');
    expect(error.message).toBe('node-a GET test: timed out after 300ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('turns credentials in the URL into basic auth', async () => {
    const response = await client.request({ url: `${base.replace('http://', 'http://user:p%40ss@')}/auth`, timeoutMs: 1000, upstream: 'x', operation: 'y' });
    expect(response.text).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
  });
});
