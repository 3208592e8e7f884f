import { createServer } from 'node:net';

/**
 * Ports below Linux's ephemeral range (32768-60999 by default). A port the kernel picked for a
 * `listen(0)` is an ephemeral one, and between this check and the process's own listen an
 * outgoing connection of a busy suite may take it as its source port: the daemon in the image
 * test, which starts seconds later, was once refused its address that way. The tests take their
 * ports here too (test/helpers/ports.ts).
 */
const FIRST_PORT = 20_000;
const PORTS = 12_000;

/** A loopback port that was free a moment ago, for a process that needs one on its command line. */
export async function freePort() {
  for (;;) {
    const port = FIRST_PORT + Math.floor(Math.random() * PORTS);
    if (await bindable(port)) return port;
  }
}

function bindable(port) {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
