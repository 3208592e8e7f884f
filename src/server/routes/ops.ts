import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DaemonView } from '../daemon-view.js';
import { needs } from '../route-authority.js';

/** Prometheus-style operational endpoints. */
export function registerOpsRoutes(app: FastifyInstance, daemon: DaemonView): void {
  app.get('/-/healthy', needs('read'), async (_, reply) => reply.type('text/plain').send('avaxmon is healthy.\n'));
  app.get('/-/ready', needs('read'), async (_, reply) =>
    daemon.isReady()
      ? reply.type('text/plain').send('avaxmon is ready.\n')
      : reply.code(503).type('text/plain').send(`avaxmon is not ready: ${daemon.notReadyReason()}.\n`),
  );
  app.post('/-/reload', needs('lifecycle'), async (_, reply) => {
    const result = await daemon.reload();
    if (result.ok) return reply.type('text/plain').send('config reloaded\n');
    return reply
      .code(500)
      .type('text/plain')
      .send(`config reload failed:\n${result.errors.join('\n')}\n`);
  });
  // Prometheus answers a wrong method on its /-/ paths with 405 and the methods that work.
  methodNotAllowed(app, '/-/healthy', ['GET', 'HEAD']);
  methodNotAllowed(app, '/-/ready', ['GET', 'HEAD']);
  methodNotAllowed(app, '/-/reload', ['POST']);
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

function methodNotAllowed(app: FastifyInstance, url: string, allowed: readonly string[]): void {
  const refuse = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', allowed.join(', '))
      .type('text/plain')
      .send(`${request.method} is not allowed on ${url}; use ${allowed.join(' or ')}.\n`);
  app.route({
    method: METHODS.filter((method) => !allowed.includes(method)),
    url,
    ...needs('refuse'),
    // Answered before the body is read: a body of a type nobody parses would otherwise get 415.
    onRequest: refuse,
    handler: refuse,
  });
}
