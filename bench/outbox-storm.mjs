// An alert storm while the receivers are down: TARGETS nodes turn unhealthy at once, every receiver
// answers 503 for DOWN_S seconds, then recovers. Measures /metrics latency throughout (the outbox
// must not starve the event loop) and checks that every notification is delivered exactly once.
// Usage: npm run -s build && node bench/outbox-storm.mjs   (TARGETS=100, DOWN_S=60, INTERVAL=5s)
// Targets: /metrics p99 < 100 ms during the outage and the drain; 0 lost, 0 duplicate notifications.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectorNames } from '../dist/collectors/index.js';
import { startSimulator } from '../dist/simulator/server.js';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';

const TARGETS = Number(process.env.TARGETS ?? 100);
const DOWN_S = Number(process.env.DOWN_S ?? 60);
const INTERVAL = process.env.INTERVAL ?? '5s';
const RECEIVERS = ['webhook', 'slack', 'discord', 'alertmanager'];
/** /metrics before the storm: on a shared machine, the floor the other figures stand on. */
const BASELINE_S = 10;
const main = new URL('../dist/main.js', import.meta.url).pathname;

// One loopback server plays every receiver; down, it answers 503 without reading the request.
let down = true;
const deliveries = new Map(); // idempotency key (or body) -> count
const alertsDelivered = new Set(); // receiver + target: each storm alert reached each receiver
const receiver = createServer((request, response) => {
  if (down) return void response.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance\n');
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const receiverName = request.url.split('/')[1];
    // Alertmanager gets no idempotency key but a periodic re-send by design; only keyed sends can be duplicates.
    const key = `${receiverName} ${request.headers['idempotency-key'] ?? body}`;
    deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
    for (const [target] of body.matchAll(/node-\d+/g)) alertsDelivered.add(`${receiverName} ${target}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;

const sim = await startSimulator();
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-outbox-storm-'));
const onlyHealth = Object.fromEntries(collectorNames.map((name) => [name, { enabled: name === 'health' }]));
const targets = Array.from({ length: TARGETS }, (_, index) => ({ name: `node-${index}`, url: sim.url, collectors: onlyHealth }));
const match = { alertname: 'AvalancheNodeUnhealthy' };
const config = {
  global: { interval: INTERVAL, timeout: '2s' },
  targets,
  alerts: {
    state_dir: join(dir, 'state'),
    retry: { initial_backoff: '1s', max_backoff: '10s' },
    // Every alert its own group: 400 separate notifications, the harshest storm. (With the default
    // group_by [alertname], Slack and Discord would carry the 100 alerts in one message, most as
    // "... N more alerts", which this bench's per-target count could not see.)
    group_by: ['...'],
    rules: { AvalancheNodeUnhealthy: { for: '0s' }, AvalancheHealthCheckFailing: { enabled: false } },
    receivers: [
      { name: 'webhook', type: 'webhook', url: `${receiverUrl}/webhook/hook`, match },
      { name: 'slack', type: 'slack', url: `${receiverUrl}/slack/services/T0/B0/x`, match },
      { name: 'discord', type: 'discord', url: `${receiverUrl}/discord/api/webhooks/1/x`, match },
      { name: 'alertmanager', type: 'alertmanager', url: `${receiverUrl}/alertmanager`, match },
    ],
  },
};
const configFile = join(dir, 'config.yaml');
writeFileSync(configFile, JSON.stringify(config)); // JSON is YAML
const port = await freePort();
const daemon = spawn(
  process.execPath,
  [main, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'],
  { env: daemonEnv, stdio: 'inherit' },
);
const base = `http://127.0.0.1:${port}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function scrape() {
  const started = performance.now();
  const text = await (await fetch(`${base}/metrics`)).text();
  return { ms: performance.now() - started, text };
}
const value = (text, series) => Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${daemon.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
};

// Wait for the first round, then the storm.
for (let ready = false; !ready; await sleep(500))
  ready = await fetch(`${base}/-/ready`).then(
    (r) => r.ok,
    () => false,
  );
const phases = { baseline: [], outage: [], drain: [], firing: [] };
let phase = 'baseline';
let peakDepth = 0;
let scraping = true;
const scraper = (async () => {
  while (scraping) {
    const { ms, text } = await scrape();
    phases[phase]?.push(ms);
    peakDepth = Math.max(peakDepth, value(text, 'avaxmon_notification_queue_depth'));
    await sleep(100);
  }
})();

await sleep(BASELINE_S * 1000);
phase = 'outage';
const cpuBefore = cpuSeconds();
sim.apply({ fail_check: 'network' });
await sleep(DOWN_S * 1000);
const cpuOutage = cpuSeconds() - cpuBefore;
down = false;
phase = 'drain';
const drainStarted = performance.now();
const expected = TARGETS * RECEIVERS.length;
while (alertsDelivered.size < expected && performance.now() - drainStarted < 120_000) await sleep(100);
const drainMs = performance.now() - drainStarted;
// Alerts still firing, outbox empty: what the alerts cost without the outbox, and time for a duplicate to show.
phase = 'firing';
await sleep(BASELINE_S * 1000);
phase = 'done';
scraping = false;
await scraper;
const { text: finalMetrics } = await scrape();

await new Promise((resolve) => {
  daemon.once('exit', resolve);
  daemon.kill('SIGTERM');
});
await sim.close();
receiver.close();

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
};
const row = (name, values) =>
  `| ${name} | ${values.length} | ${percentile(values, 0.5).toFixed(1)} | ${percentile(values, 0.99).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`;
const duplicates = [...deliveries.values()].filter((count) => count > 1).length;
const lost = expected - alertsDelivered.size;
const retried = RECEIVERS.reduce(
  (sum, name) => sum + value(finalMetrics, `avaxmon_notifications_total{receiver="${name}",outcome="retried"}`),
  0,
);

console.log(`${TARGETS} targets x ${RECEIVERS.length} receivers, all down for ${DOWN_S} s, collection every ${INTERVAL}\n`);
console.log('| /metrics while | scrapes | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|');
console.log(row('no alerts (baseline)', phases.baseline));
console.log(row('receivers down (storm queued)', phases.outage));
console.log(row('receivers back (outbox drains)', phases.drain));
console.log(row('alerts firing, outbox empty', phases.firing));
console.log(
  `\npeak queue depth ${peakDepth}; failed attempts retried ${retried}; daemon CPU during the outage ${((cpuOutage / DOWN_S) * 100).toFixed(0)}% of a core`,
);
console.log(
  `drained in ${(drainMs / 1000).toFixed(1)} s; expected ${expected} (receiver, alert) pairs, delivered ${alertsDelivered.size}, lost ${lost}, same key sent twice ${duplicates}`,
);
const p99 = Math.max(percentile(phases.outage, 0.99), percentile(phases.drain, 0.99));
const pass = p99 < 100 && lost === 0 && duplicates === 0;
console.log(`\n/metrics p99 ${p99.toFixed(1)} ms (target < 100), lost ${lost}, duplicates ${duplicates}: ${pass ? 'PASS' : 'FAIL'}`);
process.exit(pass ? 0 : 1);
