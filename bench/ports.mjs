import { createServer } from 'node:net';

/** A loopback port that was free a moment ago, for a process that needs one on its command line. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
