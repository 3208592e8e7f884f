import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { PART_INPUT_BYTES } from '../../src/metrics/deflate-writer.js';
import { PROMETHEUS_TEXT } from '../../src/metrics/exposition.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { MetricsBody } from '../../src/server/metrics-body.js';
import { gzipMembers } from '../helpers/gzip-members.js';
import { CHROMIUM, PROMETHEUS, promQuery, startRealSystem, type PromVectorSample, type RealSystem } from '../helpers/real-systems.js';
import { eventually } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

const CURL = '/usr/bin/curl';
const haveTools = requireTool(PROMETHEUS, 'prometheus') && requireTool(CURL, 'curl') && requireTool(CHROMIUM, 'chromium');

/** /metrics of `snapshot` as the daemon serves it (collected series, then the process metrics), gzip when asked. */
async function serve(snapshot: MetricsSnapshot, encodings: string[] = []): Promise<{ server: Server; url: string }> {
  const body = new MetricsBody(snapshot);
  const server = createServer((request, response) => {
    if (request.url !== '/metrics') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<title>avaxmon</title>');
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    encodings.push(gzip ? 'gzip' : 'identity');
    void body.get('text', gzip).then((sent) => {
      response.once('close', sent.done);
      response.writeHead(200, {
        'content-type': PROMETHEUS_TEXT,
        'content-length': sent.length,
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      for (const chunk of sent.chunks) response.write(chunk);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/metrics` };
}

/**
 * A 1,000-node fleet's body: 290 series a node, 23 MB plain, in families of every size (some a
 * deflate group of their own, some sharing one), with values that compress as badly as measurements.
 */
function fleetSnapshot(): MetricsSnapshot {
  const snapshot = new MetricsSnapshot(allMetrics);
  for (let node = 0; node < 1000; node++) {
    const target = `node-${node}`;
    const samples: Sample[] = [
      { name: 'avaxmon_node_peers', labels: { target }, value: node },
      ...Array.from({ length: 21 }, (_, rule) => ({
        name: 'avaxmon_evm_rule_active',
        labels: { target, chain: 'C', rule: `Is${rule}` },
        value: 1,
      })),
      ...Array.from({ length: 268 }, (_, method) => ({
        name: 'avaxmon_rpc_requests_total',
        labels: { target, method: `platform.method${method}`, outcome: 'success' },
        value: Math.floor(Math.random() * 1e9),
      })),
    ];
    snapshot.setSlice(`${target}/self`, samples);
  }
  return snapshot;
}

/** curl's output; asynchronous, as the server answering it runs in this process. */
function curl(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    execFile(CURL, ['-sS', '--fail', ...args], { encoding: 'buffer', maxBuffer: 1 << 27 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

/** The collected series' sample lines in a body (the process metrics' lines move between two bodies). */
function collectedLines(text: string): number {
  return text.match(/^avaxmon_/gm)?.length ?? 0;
}

describe.runIf(haveTools)('a fleet-sized gzip body read whole by curl --compressed and headless Chromium', () => {
  const encodings: string[] = [];
  let server: Server;
  let url: string;
  let plain: string;

  beforeAll(async () => {
    ({ server, url } = await serve(fleetSnapshot(), encodings));
    plain = await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).text();
    expect(plain.length).toBeGreaterThan(20_000_000);
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('is one gzip member holding the whole body', async () => {
    // The raw bytes: curl without --compressed leaves the body encoded.
    const raw = await curl(['-H', 'accept-encoding: gzip', url]);
    const members = gzipMembers(raw);
    expect(members.length).toBe(1);
    expect(collectedLines(members[0].toString())).toBe(collectedLines(plain));
  });

  it('curl --compressed reads every line, the process metrics after the collected series included', async () => {
    const text = (await curl(['--compressed', url])).toString();
    expect(encodings.at(-1)).toBe('gzip');
    expect(collectedLines(text)).toBe(collectedLines(plain));
    expect(collectedLines(plain)).toBe(290_000);
    expect(text).toMatch(/^nodejs_heap_size_total_bytes \d+$/m);
  }, 60_000);

  it('Chromium reads every line of /metrics', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'avaxmon-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(new URL('/', url).href);
      // Fetched by the page rather than shown in a tab: the same network stack decodes the body (the
      // one that read only the first of several members), without laying out 290,000 lines of text.
      const shown = await page.evaluate(async (path) => {
        const response = await fetch(path);
        const text = await response.text();
        return {
          encoding: response.headers.get('content-encoding'),
          collected: text.match(/^avaxmon_/gm)?.length ?? 0,
          runtime: /^nodejs_heap_size_total_bytes \d+$/m.test(text),
        };
      }, new URL(url).pathname);
      expect(shown.encoding).toBe('gzip');
      expect(encodings.at(-1)).toBe('gzip');
      expect(shown.collected).toBe(collectedLines(plain));
      expect(shown.runtime).toBe(true);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 120_000);
});

const SERIES = 5_000;
/** Long label values, so a few thousand series make a body of several deflate parts. */
const padding = 'x'.repeat(400);

describe.runIf(haveTools)('a gzip body of several deflate parts, scraped by a real Prometheus', () => {
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
    let url: string;
    ({ server, url } = await serve(snapshot));
    const target = new URL(url).host;
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
  }, 60_000);

  afterAll(async () => {
    await prometheus?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("ingests every series, the last part's included", async () => {
    expect(plainBytes).toBeGreaterThan(2 * PART_INPUT_BYTES);
    const counted = await eventually(
      () => promQuery(prometheus.url, 'count(avaxmon_rpc_requests_total{job="members"})'),
      (data) => (data.result as PromVectorSample[]).length > 0,
      20_000,
    );
    expect((counted.result as PromVectorSample[])[0].value[1]).toBe(String(SERIES));
    const last = await promQuery(prometheus.url, `avaxmon_rpc_requests_total{target="node-${SERIES - 1}"}`);
    expect((last.result as PromVectorSample[])[0].value[1]).toBe(String(SERIES - 1));
    // The process metrics come after the collected series, appended to the same deflate stream.
    const runtime = await promQuery(prometheus.url, 'process_resident_memory_bytes{job="members"}');
    expect((runtime.result as PromVectorSample[]).length).toBe(1);
  });
});
