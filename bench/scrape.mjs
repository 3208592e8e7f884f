// Scrape speed at 10,000 series: avaxmon's pre-rendered /metrics against prom-client's per-scrape
// registry.metrics(), served by the same child process and measured in the same run.
// Usage: npm run -s build && node bench/scrape.mjs   (DURATION_MS, CONCURRENCY, SERIES to tune)
// The load comes from wrk (Debian's `wrk` package) when installed: a Node client on the same two
// cores costs more per 825 KiB response than the path it measures. Without wrk, an undici client.
import { execFileSync, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Pool } from 'undici';

const WRK = '/usr/bin/wrk';

const DURATION_MS = Number(process.env.DURATION_MS ?? 5000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);

const server = fork(new URL('./scrape-server.mjs', import.meta.url));
const urls = await new Promise((resolve) => server.once('message', resolve));

async function serverCpuMs() {
  const usage = await (await fetch(urls.cpu)).json();
  return (usage.user + usage.system) / 1000;
}

async function load(url, gzip) {
  const cpuBefore = await serverCpuMs();
  const result = existsSync(WRK) ? loadWithWrk(url, gzip) : await loadWithUndici(url, gzip);
  return { ...result, cpuPerRequest: ((await serverCpuMs()) - cpuBefore) / result.requests };
}

function loadWithWrk(url, gzip) {
  const args = [
    '-t2',
    `-c${CONCURRENCY}`,
    `-d${Math.round(DURATION_MS / 1000)}s`,
    '--latency',
    ...(gzip ? ['-H', 'Accept-Encoding: gzip'] : []),
    url,
  ];
  const out = execFileSync(WRK, args).toString();
  const ms = (label) => {
    const [, value, unit] = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return Number(value) * { us: 0.001, ms: 1, s: 1000 }[unit];
  };
  const requests = Number(/(\d+) requests in/.exec(out)[1]);
  const [, read, unit] = /requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB) read/.exec(out);
  const bytes = Number(read) * { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[unit];
  return { requests, rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), p50: ms('50%'), p99: ms('99%'), bodyBytes: bytes / requests };
}

async function loadWithUndici(url, gzip) {
  const target = new URL(url);
  const headers = gzip ? { 'accept-encoding': 'gzip' } : {};
  const pool = new Pool(target.origin, { connections: CONCURRENCY });
  const latencies = [];
  let bytes = 0;
  const deadline = performance.now() + DURATION_MS;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const response = await pool.request({ path: target.pathname, method: 'GET', headers });
      for await (const chunk of response.body) bytes += chunk.length; // count, do not keep: the client must stay cheap
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { requests: latencies.length, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), bodyBytes: bytes / latencies.length };
}

const results = [];
for (const gzip of [false, true]) {
  await load(urls.ours, gzip); // warm-up of both paths
  await load(urls.baseline, gzip);
  results.push({ gzip, ours: await load(urls.ours, gzip), baseline: await load(urls.baseline, gzip) });
}
server.kill();

const row = (name, r) =>
  `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuPerRequest.toFixed(3)} | ${(r.bodyBytes / 1024).toFixed(0)} KiB |`;
console.log(
  `scrape benchmark: ${process.env.SERIES ?? 10000} series, concurrency ${CONCURRENCY}, ${DURATION_MS} ms per path, load from ${existsSync(WRK) ? 'wrk' : 'undici'}, node ${process.version}`,
);
for (const { gzip, ours, baseline } of results) {
  console.log(`\n${gzip ? 'Accept-Encoding: gzip (what Prometheus sends)' : 'uncompressed'}`);
  console.log('| path | req/s | p50 ms | p99 ms | server CPU ms/scrape | body |');
  console.log('|---|---|---|---|---|---|');
  console.log(row('avaxmon pre-rendered /metrics', ours));
  console.log(row('prom-client registry.metrics() per scrape', baseline));
  console.log(
    `ratios (ours vs baseline): throughput ${(ours.rps / baseline.rps).toFixed(1)}x, p50 ${(baseline.p50 / ours.p50).toFixed(1)}x, p99 ${(baseline.p99 / ours.p99).toFixed(1)}x, server CPU per scrape ${(baseline.cpuPerRequest / ours.cpuPerRequest).toFixed(1)}x`,
  );
}
