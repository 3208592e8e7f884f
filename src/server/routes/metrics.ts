import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DaemonView } from '../daemon-view.js';
import { OPENMETRICS_TEXT, PROMETHEUS_TEXT, type ExpositionFormat } from '../../metrics/exposition.js';
import { MetricsBody } from '../metrics-body.js';
import { needs } from '../route-authority.js';

/** GET /metrics: a cached buffer, never a per-scrape rendering of the collected series. */
export function registerMetricsRoute(app: FastifyInstance, daemon: DaemonView): void {
  const metricsBody = new MetricsBody(daemon.snapshot);
  app.get('/metrics', needs('read'), async (request, reply) => {
    const format = negotiateFormat(request);
    const gzip = acceptsGzip(request);
    reply.header('content-type', format === 'openmetrics' ? OPENMETRICS_TEXT : PROMETHEUS_TEXT);
    if (gzip) reply.header('content-encoding', 'gzip');
    reply.header('vary', 'accept, accept-encoding');
    const body = await metricsBody.get(format, gzip);
    // 'close' comes once the response was sent, or its client went away.
    reply.raw.once('close', () => body.done(reply.raw.writableFinished));
    reply.header('content-length', body.length);
    return reply.send(body.chunks.length === 1 ? body.chunks[0] : Readable.from(body.chunks, { objectMode: false }));
  });
}

export function negotiateFormat(request: FastifyRequest): ExpositionFormat {
  return /application\/openmetrics-text/.test(request.headers.accept ?? '') ? 'openmetrics' : 'text';
}

export function acceptsGzip(request: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}
