import type { FastifyInstance } from 'fastify';

/**
 * Sent with every response. The status page needs no script, so the policy allows none; its one
 * inline <style> block is the only style. Responses cannot be framed, sniffed or leak a Referer.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** The security headers, then http_server_config.headers over them: added to every response, including 401s and errors. */
export function registerResponseHeaders(app: FastifyInstance, configured: Readonly<Record<string, string>>): void {
  const headers = {
    ...SECURITY_HEADERS,
    ...Object.fromEntries(Object.entries(configured).map(([name, value]) => [name.toLowerCase(), value])),
  };
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
