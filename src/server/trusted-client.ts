import type { FastifyRequest } from 'fastify';

/** A client on this machine: the operator, a sidecar in the same pod, or a local config reloader. */
export function isLoopbackClient(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress;
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * Who may see details an anonymous reader must not (upstream and receiver error texts): a loopback
 * client, or anyone once basic auth is on, since basic auth then guards every request.
 */
export function isTrustedReader(request: FastifyRequest, basicAuth: boolean): boolean {
  return basicAuth || isLoopbackClient(request);
}
