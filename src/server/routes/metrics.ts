import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Daemon } from '../../daemon.js';
import { OPENMETRICS_TEXT, PROMETHEUS_TEXT, type ExpositionFormat } from '../../metrics/exposition.js';

/**
 * GET /metrics: the pre-rendered buffer of collected series, plus process and runtime metrics from
 * prom-client rendered per scrape (they are cheap and should be live). With gzip, the pre-rendered
 * part is compressed once per render and the small live part is appended as a second gzip member.
 */
export function registerMetricsRoute(app: FastifyInstance, daemon: Daemon): void {
  const runtime = runtimeRegistries();
  app.get('/metrics', async (request, reply) => {
    const format = negotiateFormat(request);
    const gzip = acceptsGzip(request);
    const live = await runtime[format].metrics();
    const tail = format === 'openmetrics' ? `${live.replace(/# EOF\n?$/, '')}# EOF\n` : live;
    const collected = daemon.snapshot.body(format, gzip);
    const body = gzip ? Buffer.concat([collected, gzipSync(tail)]) : Buffer.concat([collected, Buffer.from(tail)]);
    reply.header('content-type', format === 'openmetrics' ? OPENMETRICS_TEXT : PROMETHEUS_TEXT);
    if (gzip) reply.header('content-encoding', 'gzip');
    reply.header('vary', 'accept, accept-encoding');
    return reply.send(body);
  });
}

function runtimeRegistries(): Record<ExpositionFormat, { metrics(): Promise<string> }> {
  const text = new Registry();
  const openmetrics = new Registry<typeof Registry.OPENMETRICS_CONTENT_TYPE>();
  openmetrics.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  collectDefaultMetrics({ register: text });
  collectDefaultMetrics({ register: openmetrics });
  return { text, openmetrics };
}

export function negotiateFormat(request: FastifyRequest): ExpositionFormat {
  return /application\/openmetrics-text/.test(request.headers.accept ?? '') ? 'openmetrics' : 'text';
}

export function acceptsGzip(request: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}
