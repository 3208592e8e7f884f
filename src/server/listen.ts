import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Listens on HOST:PORT; an empty host (":9683") means every address, IPv4 and IPv6: one socket on
 * "::" with ipv6Only off, or on 0.0.0.0 where the host has no IPv6 (a kernel booted with
 * ipv6.disable=1, some containers).
 */
export async function listenOn(app: FastifyInstance, host: string, port: number): Promise<void> {
  if (host !== '') {
    await app.listen({ host, port });
    return;
  }
  if (await ipv6Available()) await app.listen({ host: '::', port, ipv6Only: false });
  else await app.listen({ host: '0.0.0.0', port });
}

/** Whether an IPv6 socket can be bound here at all (port 0, closed at once). */
function ipv6Available(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '::', port: 0, ipv6Only: false }, () => probe.close(() => resolve(true)));
  });
}
