// Serves /metrics two ways at 10,000 series, for bench/scrape.mjs:
//   /metrics  - avaxmon's real app: a buffer pre-rendered after collection (+ live process metrics)
//   /baseline - prom-client's registry.metrics() rendering the same series on every scrape
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { parseConfig } from '../dist/config/load.js';
import { Daemon } from '../dist/daemon/daemon.js';
import { createLogger } from '../dist/runtime/log.js';

const SERIES = Number(process.env.SERIES ?? 10_000);
const TARGETS = 100;
const perTarget = SERIES / TARGETS;

const daemon = new Daemon({ config: parseConfig('targets: []'), logger: createLogger('error') });
for (let target = 0; target < TARGETS; target++) {
  const samples = Array.from({ length: perTarget }, (_, check) => ({
    name: 'avaxmon_health_check_contiguous_failures',
    labels: { target: `validator-${target}`, check: `check-${check}` },
    value: check,
  }));
  daemon.snapshot.setSlice(`validator-${target}/health`, samples);
}
daemon.snapshot.body('text', false);

const registry = new Registry();
collectDefaultMetrics({ register: registry });
const gauge = new Gauge({
  name: 'avaxmon_health_check_contiguous_failures',
  help: 'baseline',
  labelNames: ['target', 'check'],
  registers: [registry],
});
for (let target = 0; target < TARGETS; target++) {
  for (let check = 0; check < perTarget; check++) gauge.set({ target: `validator-${target}`, check: `check-${check}` }, check);
}

// The baseline gzips per scrape when asked, as prom-client behind a compression plugin would.
const baseline = Fastify();
baseline.get('/metrics', async (request, reply) => {
  const text = await registry.metrics();
  if (!/gzip/.test(request.headers['accept-encoding'] ?? '')) return reply.type(registry.contentType).send(text);
  return reply.type(registry.contentType).header('content-encoding', 'gzip').send(gzipSync(text));
});
// Server CPU time, so the ratio excludes the load generator's own cost.
baseline.get('/cpu', async () => process.cpuUsage());

await daemon.app.listen({ host: '127.0.0.1', port: 0 });
await baseline.listen({ host: '127.0.0.1', port: 0 });
const baselineOrigin = `http://127.0.0.1:${baseline.server.address().port}`;
process.send?.({
  ours: `http://127.0.0.1:${daemon.app.server.address().port}/metrics`,
  baseline: `${baselineOrigin}/metrics`,
  cpu: `${baselineOrigin}/cpu`,
});
