import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { inTurn, TURN_BUDGET_MS } from '../src/schedule/loop-turns.js';

const PIECE_MS = 2;
const PIECES = 200;

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) server.close();
});

/** A loopback server and a client connected to it; `onData` is told when the server reads the client's bytes. */
async function loopbackPair(onData: () => void): Promise<Socket> {
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', onData);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const client = connect(port, '127.0.0.1');
  sockets.push(client);
  await once(client, 'connect');
  return client;
}

describe('inTurn', () => {
  it('runs work at once while the turn has budget left, and passes on its result and its error', async () => {
    let ran = false;
    const result = inTurn(() => {
      ran = true;
      return 42;
    });
    expect(ran).toBe(true);
    await expect(result).resolves.toBe(42);
    await expect(
      inTurn(() => {
        throw new Error('bad answer');
      }),
    ).rejects.toThrow('bad answer');
  });

  it('lets the loop read a socket in the middle of a burst of work, and runs the whole burst in order', async () => {
    const finished: number[] = [];
    let finishedWhenRead: number | undefined;
    const client = await loopbackPair(() => (finishedWhenRead ??= finished.length));
    client.write('a scrape');
    // 400 ms of work given at once, as answers completing together would give it.
    const burst = Array.from({ length: PIECES }, (_, piece) =>
      inTurn(() => {
        busyFor(PIECE_MS);
        finished.push(piece);
      }),
    );
    await Promise.all(burst);
    expect(finished).toEqual([...Array(PIECES).keys()]);
    // Without turns the server would read only after all 200 pieces; with them, within a turn or two.
    expect(finishedWhenRead).toBeLessThanOrEqual((3 * TURN_BUDGET_MS) / PIECE_MS + 2);
  });
});
