import type { FastifyInstance } from 'fastify';

/** http_server_config.headers: added to every response, including 401s and errors. */
export function registerResponseHeaders(app: FastifyInstance, headers: Readonly<Record<string, string>>): void {
  if (Object.keys(headers).length === 0) return;
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
