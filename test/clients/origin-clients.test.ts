import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OriginClients } from '../../src/clients/origin-clients.js';

/** A loopback server that counts the connections it accepted and can hold its answers. */
describe('OriginClients', () => {
  let server: Server;
  let origin: string;
  let sockets: Set<Socket>;
  let held: ServerResponse[];
  let holding: boolean;
  let clients: OriginClients;

  beforeEach(async () => {
    sockets = new Set();
    held = [];
    holding = false;
    server = createServer((request, response) => (holding ? held.push(response) : response.end(request.url)));
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    clients = new OriginClients(origin, { connections: 2, keepAliveTimeout: 30_000 });
  });
  afterEach(async () => {
    await clients.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = async (path: string) => await (await clients.request({ origin, path, method: 'GET' })).body.text();
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('asks one thing at a time over one kept-alive connection', async () => {
    for (const path of ['/a', '/b', '/c']) expect(await get(path)).toBe(path);
    expect(sockets.size).toBe(1);
  });

  it('opens a second connection while the first is busy, never more than its cap, and answers every request', async () => {
    holding = true;
    const answers = ['/1', '/2', '/3', '/4'].map((path) => get(path));
    await until(() => held.length === 2);
    expect(sockets.size).toBe(2);
    holding = false;
    for (const response of held) response.end(response.req.url);
    expect(await Promise.all(answers)).toEqual(['/1', '/2', '/3', '/4']);
    expect(sockets.size).toBe(2);
  });

  it('forgets the clients whose connections closed idle, and still answers after', async () => {
    const brief = new OriginClients(origin, { connections: 2, keepAliveTimeout: 50, keepAliveMaxTimeout: 50 });
    const open = () => (brief as unknown as { clients: unknown[] }).clients.length;
    holding = true;
    const answers = ['/1', '/2'].map((path) => brief.request({ origin, path, method: 'GET' }).then((response) => response.body.text()));
    await until(() => held.length === 2);
    holding = false;
    for (const response of held) response.end(response.req.url);
    expect(await Promise.all(answers)).toEqual(['/1', '/2']);
    expect(open()).toBe(2);
    await until(() => open() === 0);
    expect(await (await brief.request({ origin, path: '/3', method: 'GET' })).body.text()).toBe('/3');
    await brief.close();
  });

  it("closes a burst's spare connection soon after it idles, whatever the server allows, and keeps the first", async () => {
    const spare = new OriginClients(origin, { connections: 2, keepAliveTimeout: 30_000, spare: { kept: 1, idleMs: 50 } });
    const open = () => (spare as unknown as { clients: unknown[] }).clients.length;
    holding = true;
    const answers = ['/1', '/2'].map((path) => spare.request({ origin, path, method: 'GET' }).then((response) => response.body.text()));
    await until(() => held.length === 2);
    holding = false;
    for (const response of held) response.end(response.req.url);
    expect(await Promise.all(answers)).toEqual(['/1', '/2']);
    // The server's Keep-Alive hint (5 s, Node's default) would keep both; the spare closes first.
    await until(() => open() === 1 && [...sockets].filter((socket) => !socket.closed).length === 1);
    // The next request goes over the kept connection: no third one is opened.
    expect(await (await spare.request({ origin, path: '/3', method: 'GET' })).body.text()).toBe('/3');
    expect(sockets.size).toBe(2);
    await spare.close();
  });

  it('closes its connections on close, and refuses requests after', async () => {
    await get('/a');
    const [socket] = sockets;
    await clients.close();
    await until(() => socket.closed);
    await expect(get('/b')).rejects.toThrow(/closed/);
  });
});
