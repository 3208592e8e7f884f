import Fastify, { type FastifyInstance } from 'fastify';
import type { Server as HttpsServer } from 'node:https';
import type { DaemonView } from './daemon-view.js';
import { registerBasicAuth } from './basic-auth.js';
import { enforceClientCertPolicy } from './client-cert-policy.js';
import { registerResponseHeaders } from './response-headers.js';
import { registerAlertmanagerApi } from './routes/alertmanager-api.js';
import { registerAlertmanagerStatus } from './routes/alertmanager-status.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerOpsRoutes } from './routes/ops.js';
import { registerProbeRoute } from './routes/probe.js';
import { registerStatusRoute } from './routes/status.js';
import type { WebOptions } from './web-config.js';
import { registerWriteGuard } from './write-guard.js';

export type { WebOptions } from './web-config.js';

/** Builds the fastify app without listening, so tests and main.ts decide where it listens. */
export function buildApp(daemon: DaemonView, web: WebOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    ...(web.https ? { https: web.https } : {}),
  }) as unknown as FastifyInstance;
  if (web.https && web.clientAuth) enforceClientCertPolicy(app.server as HttpsServer, web.clientAuth);
  registerResponseHeaders(app, web.headers ?? {});
  if (web.basicAuthUsers) registerBasicAuth(app, web.basicAuthUsers, daemon.clock);
  registerWriteGuard(app, web.control ?? {}, Boolean(web.basicAuthUsers), daemon.log);
  registerMetricsRoute(app, daemon);
  registerOpsRoutes(app, daemon);
  registerStatusRoute(app, daemon, Boolean(web.basicAuthUsers));
  registerProbeRoute(app, daemon);
  registerAlertmanagerApi(app, () => daemon.alerting);
  registerAlertmanagerStatus(app, daemon);
  return app;
}
