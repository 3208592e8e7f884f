import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { limitConnections } from './connection-limit.js';
import { enforceClientCertPolicy } from './client-cert-policy.js';
import type { WebOptions } from './web-config.js';

/** The servers an app listens on besides its own (the second and later --web.listen-address). */
const extraServers = new WeakMap<FastifyInstance, Server[]>();

/** Every server that serves the app, its own first: a TLS certificate reload applies to each. */
export function serversOf(app: FastifyInstance): Server[] {
  return [app.server, ...(extraServers.get(app) ?? [])];
}

/**
 * Listens on each address, as exporter-toolkit does for repeated --web.listen-address: the app's own
 * server on the first, and for each further one a server of the same kind (TLS and client
 * certificate policy included) handing requests to the same routes. Closing the app closes them.
 */
export async function listenOnEvery(
  app: FastifyInstance,
  addresses: ReadonlyArray<{ host: string; port: number }>,
  web: Pick<WebOptions, 'https' | 'clientAuth'>,
  limits: { readonly maxConnections: number; readonly log: Logger },
): Promise<void> {
  const [first, ...rest] = addresses;
  const servers: Server[] = [];
  extraServers.set(app, servers);
  if (rest.length > 0) {
    app.addHook('onClose', async () => {
      await Promise.all(
        servers.map((server) => {
          server.closeIdleConnections();
          return new Promise((resolve) => server.close(resolve));
        }),
      );
    });
  }
  limitConnections(app.server, limits.maxConnections, limits.log);
  await listenOn(app, first.host, first.port);
  for (const { host, port } of rest) {
    const handler = (request: Parameters<FastifyInstance['routing']>[0], response: Parameters<FastifyInstance['routing']>[1]) =>
      app.routing(request, response);
    const server = web.https ? createHttpsServer(web.https, handler) : createHttpServer(handler);
    if (web.https && web.clientAuth) enforceClientCertPolicy(server as never, web.clientAuth);
    limitConnections(server, limits.maxConnections, limits.log);
    servers.push(server);
    await listenServer(server, host, port);
  }
}

async function listenServer(server: Server, host: string, port: number): Promise<void> {
  const bind = (options: { host: string; port: number; ipv6Only?: boolean }) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options, () => {
        server.off('error', reject);
        resolve();
      });
    });
  if (host !== '') return bind({ host, port });
  if (await ipv6Available()) return bind({ host: '::', port, ipv6Only: false });
  return bind({ host: '0.0.0.0', port });
}

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
