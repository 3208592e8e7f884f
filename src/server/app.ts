import Fastify, { type FastifyInstance } from 'fastify';
import type { Server as HttpsServer } from 'node:https';
import type { Daemon } from '../daemon.js';
import { registerBasicAuth } from './basic-auth.js';
import { enforceClientCertPolicy } from './client-cert-policy.js';
import { registerResponseHeaders } from './response-headers.js';
import { registerAlertmanagerApi } from './routes/alertmanager-api.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerOpsRoutes } from './routes/ops.js';
import { registerProbeRoute } from './routes/probe.js';
import { registerStatusRoute } from './routes/status.js';
import type { ClientAuthType } from './web-config.js';

/** Options of avaxmon's own HTTP endpoints; TLS and auth come from --web.config.file. */
export interface WebOptions {
  readonly https?: {
    key: Buffer;
    cert: Buffer;
    ca?: Buffer;
    requestCert?: boolean;
    rejectUnauthorized?: boolean;
    minVersion?: 'TLSv1.2' | 'TLSv1.3';
    maxVersion?: 'TLSv1.2' | 'TLSv1.3';
  };
  /** exporter-toolkit's client_auth_type; see client-cert-policy.ts. */
  readonly clientAuth?: ClientAuthType;
  /** user → bcrypt hash; when set, every endpoint requires basic auth. */
  readonly basicAuthUsers?: Readonly<Record<string, string>>;
  /** Security headers added to every response. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Builds the fastify app without listening, so tests and main.ts decide where it listens. */
export function buildApp(daemon: Daemon, web: WebOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    ...(web.https ? { https: web.https } : {}),
  }) as unknown as FastifyInstance;
  if (web.https && web.clientAuth) enforceClientCertPolicy(app.server as HttpsServer, web.clientAuth);
  registerResponseHeaders(app, web.headers ?? {});
  if (web.basicAuthUsers) registerBasicAuth(app, web.basicAuthUsers);
  registerMetricsRoute(app, daemon);
  registerOpsRoutes(app, daemon);
  registerStatusRoute(app, daemon);
  registerProbeRoute(app, daemon);
  registerAlertmanagerApi(app, () => daemon.alerting);
  return app;
}
