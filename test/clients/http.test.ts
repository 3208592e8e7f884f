import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { Client } from 'undici';
import { Exchange } from '../../src/clients/exchange.js';
import { HttpClient } from '../../src/clients/http.js';
import { ResponseMemory } from '../../src/clients/response-memory.js';
import { UpstreamError } from '../../src/errors.js';

/** A hostile upstream: a chunked body that never ends, until the client goes away. */
function endless(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(16 * 1024, 'z');
  const timer = setInterval(() => response.write(chunk), 1);
  response.on('close', () => clearInterval(timer));
}

/** "é" and "€" cut between two chunks, the second sent only after the first is on the wire. */
function splitUtf8(response: ServerResponse): void {
  const bytes = Buffer.from('{"name":"café €"}');
  const cut = bytes.indexOf(0xa9); // inside "é"; "€" follows whole in the second chunk
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write(bytes.subarray(0, cut));
  setTimeout(() => response.end(bytes.subarray(cut)), 50);
}

/** A body of undeclared length (chunked, as AvalancheGo sends large answers), 300 KB in uneven pieces. */
const LARGE_CHUNKED = `[${Array.from({ length: 20_000 }, (_, index) => `"café € ${index}"`).join(',')}]`;
function largeChunked(response: ServerResponse): void {
  const bytes = Buffer.from(LARGE_CHUNKED);
  response.writeHead(200, { 'content-type': 'application/json' });
  let offset = 0;
  const next = () => {
    // 7,001 bytes: pieces end inside multi-byte characters, and the body outgrows 64 KiB thrice.
    response.write(bytes.subarray(offset, (offset += 7_001)));
    if (offset < bytes.length) setImmediate(next);
    else response.end();
  };
  next();
}

/** 48 MiB with its length declared, the second half 300 ms after the first. */
const HALF = Buffer.alloc(24 * 1024 * 1024, 'w');
function slowHalves(response: ServerResponse): void {
  response.writeHead(200, { 'content-length': 2 * HALF.length });
  response.write(HALF);
  setTimeout(() => response.end(HALF), 300);
}

function fullCollection(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** V8's scavenge alone: promotes what survives twice, frees young garbage, leaves the old generation. */
function scavenge(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void)({ type: 'minor', execution: 'sync' });
}

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
      if (request.url === '/endless') return void endless(response);
      if (request.url === '/declared-large') return void response.end('y'.repeat(300_000));
      if (request.url === '/auth') return void response.end(request.headers.authorization ?? 'none');
      if (request.url === '/split-utf8') return void splitUtf8(response);
      if (request.url === '/large-chunked') return void largeChunked(response);
      if (request.url === '/declared-48mb') return void slowHalves(response);
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

  it('decodes a character whose UTF-8 bytes arrive in two chunks', async () => {
    expect((await request('/split-utf8')).text).toBe('{"name":"café €"}');
  });

  it('reads a large body of undeclared length whole, characters cut between pieces included', async () => {
    const roomy = new HttpClient({ maxResponseBytes: 1024 * 1024 });
    const response = await roomy.request({ url: `${base}/large-chunked`, timeoutMs: 5000, upstream: 'node-a', operation: 'GET test' });
    await roomy.close();
    expect(Buffer.byteLength(LARGE_CHUNKED)).toBeGreaterThan(4 * 64 * 1024);
    expect(response.text).toBe(LARGE_CHUNKED);
  });

  it("hands a body's memory back once it is read, not at V8's next full collection", async () => {
    const roomy = new HttpClient({ maxResponseBytes: 64 * 1024 * 1024 });
    const before = process.memoryUsage().arrayBuffers;
    const reading = roomy.request({ url: `${base}/declared-48mb`, timeoutMs: 10_000, upstream: 'node-a', operation: 'GET test' });
    // Mid-body, as on a busy daemon: the body's buffer object survives two scavenges into the old generation.
    await new Promise((resolve) => setTimeout(resolve, 150));
    scavenge();
    scavenge();
    const response = await reading;
    scavenge();
    const held = process.memoryUsage().arrayBuffers - before;
    await roomy.close();
    expect(response.text.length).toBe(2 * HALF.length);
    // Socket buffers caught by the scavenges mid-body may remain (16-20 MiB here); the body's own 48 MiB may not.
    expect(held).toBeLessThan(32 * 1024 * 1024);
  });

  it("keeps no view of the socket read that held an answer's headers while its body arrives", async () => {
    const dispatcher = new Client(base);
    const exchange = new Exchange(
      { timeoutMs: 1000, upstream: 'node-a', operation: 'GET test' },
      { cap: 1024, memory: new ResponseMemory() },
    );
    let rawHeaders: WeakRef<object> | undefined;
    const onResponseStart = exchange.onResponseStart.bind(exchange);
    exchange.onResponseStart = (controller, ...rest) => {
      // undici's controller keeps the raw headers: views into the socket read they arrived in.
      rawHeaders = new WeakRef(controller.rawHeaders as object);
      onResponseStart(controller, ...rest);
    };
    dispatcher.dispatch({ origin: base, path: '/split-utf8', method: 'GET' }, exchange);
    // The body's second half comes 50 ms after its headers.
    while (!rawHeaders) await new Promise((resolve) => setTimeout(resolve, 1));
    fullCollection();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(rawHeaders.deref()).toBeUndefined();
    expect((await exchange.answered).text()).toBe('{"name":"café €"}');
    exchange.release();
    await dispatcher.close();
  });

  it("empties the connection parser's raw headers array, so an old array keeps no answer's views through scavenges", async () => {
    const dispatcher = new Client(base);
    const sizes: number[] = [];
    for (let answer = 0; answer < 2; answer++) {
      const exchange = new Exchange(
        { timeoutMs: 1000, upstream: 'node-a', operation: 'GET test' },
        { cap: 1024, memory: new ResponseMemory() },
      );
      const onResponseStart = exchange.onResponseStart.bind(exchange);
      exchange.onResponseStart = (controller, ...rest) => {
        // undici hands over its parser's array: made when the connection's last answer ended, and
        // in the old generation by the time a connection polled every few seconds answers again.
        const raw = controller.rawHeaders as unknown[];
        expect(raw.length).toBeGreaterThan(0);
        onResponseStart(controller, ...rest);
        sizes.push(raw.length);
      };
      dispatcher.dispatch({ origin: base, path: '/', method: 'GET' }, exchange);
      expect((await exchange.answered).text()).toBe('ok');
      exchange.release();
    }
    expect(sizes).toEqual([0, 0]);
    await dispatcher.close();
  });

  it('caps the body size and names the upstream', async () => {
    const error = await request('/huge').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).outcome).toBe('bad_body');
    expect((error as Error).message).toBe('node-a GET test: response body exceeds 1024 bytes');
  });

  it('holds all bodies being read within one memory budget, failing the request that would overdraw it', async () => {
    const responseMemory = new ResponseMemory();
    responseMemory.setLimit(256 * 1024);
    const roomy = new HttpClient({ maxResponseBytes: 1024 * 1024, responseMemory });
    try {
      const read = (path: string, upstream: string) =>
        roomy.request({ url: `${base}${path}`, timeoutMs: 5000, upstream, operation: 'GET test' }).then(
          () => new UpstreamError(upstream, 'GET test', 'success', 'unexpectedly read in full'),
          (caught: unknown) => caught as UpstreamError,
        );
      const results = await Promise.all(['node-a', 'node-b', 'node-c'].map((name) => read('/endless', name)));
      const overBudget = results.filter((error) =>
        /exceed the memory budget of 262144 bytes \(global\.max_response_memory_bytes\)/.test(error.message),
      );
      expect(overBudget.length).toBeGreaterThan(0);
      expect(overBudget[0].message).toMatch(/^node-[abc] GET test: /);
      // A declared body that cannot fit fails before a byte of it is read.
      const declared = await read('/declared-large', 'node-d');
      expect(declared.message).toBe(
        'node-d GET test: response bodies being read exceed the memory budget of 262144 bytes (global.max_response_memory_bytes)',
      );
      expect(responseMemory.usedBytes).toBe(0);
    } finally {
      await roomy.close();
    }
  });

  it('times out a body that stops arriving', async () => {
    // The body never ends: without the timeout this request would hang until the test's own timeout.
    const error = (await request('/stalled-body', 300).catch((caught: unknown) => caught)) as UpstreamError;
    expect(error.outcome).toBe('timeout');
    expect(error.message).toBe('node-a GET test: timed out after 300ms');
  });

  it('turns credentials in the URL into basic auth', async () => {
    const response = await client.request({
      url: `${base.replace('http://', 'http://user:p%40ss@')}/auth`,
      timeoutMs: 1000,
      upstream: 'x',
      operation: 'y',
    });
    expect(response.text).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
  });
});
