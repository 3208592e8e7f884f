import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { MEMBER_INPUT_BYTES } from '../../src/metrics/gzip-members.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { PROMETHEUS_TEXT } from '../../src/metrics/exposition.js';
import { MetricsBody } from '../../src/server/metrics-body.js';
import { PROMETHEUS, promQuery, startRealSystem, type PromVectorSample, type RealSystem } from '../helpers/real-systems.js';
import { eventually } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

const haveTools = requireTool(PROMETHEUS, 'prometheus');

const SERIES = 5_000;
/** Long label values, so a few thousand series make a body of several gzip members. */
const padding = 'x'.repeat(400);

describe.runIf(haveTools)('a gzip body of several members, scraped by a real Prometheus', () => {
  let server: Server;
  let prometheus: RealSystem;
  let plainBytes = 0;

  beforeAll(async () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    const samples = Array.from({ length: SERIES }, (_, index) => ({
      name: 'avaxmon_rpc_requests_total',
      labels: { target: `node-${index}`, method: padding, outcome: 'success' },
      value: index,
    }));
    snapshot.setSlice('fleet/self', samples);
    plainBytes = snapshot.body('text', false).length;
    const body = new MetricsBody(snapshot);
    server = createServer((request, response) => {
      const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
      void body.get('text', gzip).then((bytes) => {
        response.writeHead(200, { 'content-type': PROMETHEUS_TEXT, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
        response.end(bytes);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(server.address() as { port: number }).port}`;
    const config = `
global: { scrape_interval: 1s, scrape_timeout: 1s }
scrape_configs:
  - job_name: members
    static_configs: [{ targets: ['${target}'] }]
`;
    prometheus = await startRealSystem(PROMETHEUS, { 'prometheus.yml': config }, (dir, listen) => [
      `--config.file=${dir}/prometheus.yml`,
      `--storage.tsdb.path=${dir}/data`,
      `--web.listen-address=${listen}`,
    ]);
  }, 180_000);

  afterAll(async () => {
    await prometheus?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("ingests every series, the last member's included", async () => {
    expect(plainBytes).toBeGreaterThan(2 * MEMBER_INPUT_BYTES);
    const counted = await eventually(
      () => promQuery(prometheus.url, 'count(avaxmon_rpc_requests_total{job="members"})'),
      (data) => (data.result as PromVectorSample[]).length > 0,
      60_000,
    );
    expect((counted.result as PromVectorSample[])[0].value[1]).toBe(String(SERIES));
    const last = await promQuery(prometheus.url, `avaxmon_rpc_requests_total{target="node-${SERIES - 1}"}`);
    expect((last.result as PromVectorSample[])[0].value[1]).toBe(String(SERIES - 1));
    // The process metrics come after the collected series, as a member of their own.
    const runtime = await promQuery(prometheus.url, 'process_resident_memory_bytes{job="members"}');
    expect((runtime.result as PromVectorSample[]).length).toBe(1);
  });
});
