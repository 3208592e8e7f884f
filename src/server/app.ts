import Fastify, { type FastifyInstance } from 'fastify';
import type { Daemon } from '../daemon.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerOpsRoutes } from './routes/ops.js';
import { registerStatusRoute } from './routes/status.js';

/** Options of avaxmon's own HTTP endpoints; TLS and auth come from --web.config.file. */
export interface WebOptions {
  readonly https?: { key: Buffer; cert: Buffer; ca?: Buffer; requestCert?: boolean; minVersion?: 'TLSv1.2' | 'TLSv1.3' };
}

/** Builds the fastify app without listening, so tests and main.ts decide where it listens. */
export function buildApp(daemon: Daemon, web: WebOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    ...(web.https ? { https: web.https } : {}),
  }) as unknown as FastifyInstance;
  registerMetricsRoute(app, daemon);
  registerOpsRoutes(app, daemon);
  registerStatusRoute(app, daemon);
  return app;
}
