import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DaemonView } from '../daemon-view.js';
import { allMetrics } from '../../metrics/catalogue/index.js';
import type { Sample } from '../../metrics/metric-desc.js';
import { OPENMETRICS_TEXT, PROMETHEUS_TEXT, assemble, renderSamples } from '../../metrics/exposition.js';
import { MAX_REMEMBERED_TARGETS, ProbeRunner } from '../../probe/runner.js';
import { ProbeBusyError, ProbeGate } from '../../probe/gate.js';
import { resolveProbeTarget } from '../../probe/target.js';
import { acceptsGzip, negotiateFormat } from './metrics.js';
import { needs } from '../route-authority.js';

/** probe.max_concurrent when the config has no probe section. */
const DEFAULT_MAX_CONCURRENT = 16;

/** Leaves time to send the answer before Prometheus gives up, as blackbox_exporter's timeout_offset does. */
const SCRAPE_TIMEOUT_OFFSET_SECONDS = 0.5;

/**
 * GET /probe?target=NAME|URL, after blackbox_exporter: runs that target's collectors now, within the
 * scrape timeout Prometheus announces, and answers only that target's series. A failed collection
 * still answers 200 with avaxmon_probe_success 0; 4xx means the request itself was refused, before
 * any outbound connection.
 */
export function registerProbeRoute(app: FastifyInstance, daemon: DaemonView): void {
  const runner = new ProbeRunner(daemon.config, daemon.log, MAX_REMEMBERED_TARGETS, daemon);
  const gate = new ProbeGate(daemon.config.probe?.max_concurrent ?? DEFAULT_MAX_CONCURRENT, () => daemon.clock.now());
  app.addHook('onClose', () => runner.close());
  app.get('/probe', needs('read'), async (request, reply) => {
    const resolution = resolveProbeTarget((request.query as Record<string, unknown>).target, daemon.config);
    if ('status' in resolution) return reply.code(resolution.status).type('text/plain').send(`${resolution.message}\n`);
    const timeout = probeTimeoutMs(request, daemon.config.global.timeout);
    if (typeof timeout === 'string') return reply.code(400).type('text/plain').send(`${timeout}\n`);
    const { target } = resolution;
    let samples: Sample[];
    try {
      // A shared run outlives the request that started it, so it stops at its timeout, not when one client leaves.
      samples = await gate.probe(target.name, () => runner.probe(target, daemon.config, timeout, AbortSignal.timeout(timeout)));
    } catch (error) {
      if (error instanceof ProbeBusyError) return reply.code(429).header('retry-after', '1').type('text/plain').send(`${error.message}\n`);
      throw error;
    }
    const format = negotiateFormat(request);
    const text = assemble(allMetrics, [renderSamples(samples)], format).toString() + (format === 'openmetrics' ? '# EOF\n' : '');
    reply.header('content-type', format === 'openmetrics' ? OPENMETRICS_TEXT : PROMETHEUS_TEXT);
    if (!acceptsGzip(request)) return reply.send(text);
    return reply.header('content-encoding', 'gzip').send(gzipSync(text));
  });
}

/**
 * The scrape timeout Prometheus sends, minus the offset, for every collector of the probe: the
 * scraper knows how long it will wait. Without the header, the configured global timeout. Returns an
 * error message for a header that is not a number of seconds.
 */
function probeTimeoutMs(request: FastifyRequest, configuredMs: number): number | string {
  const header = request.headers['x-prometheus-scrape-timeout-seconds'];
  if (header === undefined) return configuredMs;
  const seconds = Number(header);
  if (typeof header !== 'string' || header.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
    return `X-Prometheus-Scrape-Timeout-Seconds must be a positive number of seconds, got "${String(header)}"`;
  }
  // A scrape timeout shorter than twice the offset keeps half of itself rather than nothing.
  const usable = seconds > 2 * SCRAPE_TIMEOUT_OFFSET_SECONDS ? seconds - SCRAPE_TIMEOUT_OFFSET_SECONDS : seconds / 2;
  // Whole milliseconds: timers and AbortSignal.timeout reject fractions such as 1.1 s - 0.5 s.
  return Math.max(1, Math.floor(usable * 1000));
}
