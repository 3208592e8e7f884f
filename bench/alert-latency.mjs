// Time from a health flip at the (simulated) node to the webhook request arriving at a receiver.
// Usage: npm run -s build && node bench/alert-latency.mjs   (FLIPS=30, INTERVAL=1s)
// Target: p99 <= collection interval + 250 ms.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../dist/simulator/server.js';
import { parseDuration } from '../dist/config/duration.js';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';

const FLIPS = Number(process.env.FLIPS ?? 30);
const INTERVAL = process.env.INTERVAL ?? '1s';
const intervalMs = parseDuration(INTERVAL);
const main = new URL('../dist/main.js', import.meta.url).pathname;
// What ran and how busy the machine was: a loaded machine's stalls show as outliers (docs/performance.md).
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadAtStart = load();

// The receiver: resolves the waiter of the next notification with its arrival time.
let waiter;
const receiver = createHttpServer((request, response) => {
  const arrivedMs = performance.now();
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    response.writeHead(200).end();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    waiter?.({ status: body.status, arrivedMs });
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const nextNotification = (timeoutMs) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no notification within ${timeoutMs} ms`)), timeoutMs);
    waiter = (value) => {
      clearTimeout(timer);
      resolve(value);
    };
  });

const sim = await startSimulator();
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-alert-latency-'));
const config = join(dir, 'config.yaml');
writeFileSync(
  config,
  `global: { interval: ${INTERVAL}, timeout: 500ms }
targets: [{ name: validator-1, url: "${sim.url}" }]
alerts:
  state_dir: ${join(dir, 'state')}
  flap_max_transitions: 1000
  # The pipeline's own latency; grouping adds group_wait (default 1s) to a group's first notification
  # and up to group_interval (default 10s) to its later ones, by design (docs/alerting.md).
  group_wait: 0s
  group_interval: 0s
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
  receivers:
    - { name: bench, type: webhook, url: "http://127.0.0.1:${receiver.address().port}/hook", match: { alertname: AvalancheNodeUnhealthy } }
`,
);
const daemon = spawn(
  process.execPath,
  [main, `--config.file=${config}`, `--web.listen-address=127.0.0.1:${await freePort()}`, '--log.level=warn'],
  { env: daemonEnv, stdio: 'inherit' },
);
await new Promise((resolve) => setTimeout(resolve, 2 * intervalMs + 1000));

const firing = [];
const resolved = [];
for (let flip = 0; flip < FLIPS; flip++) {
  // A random phase against the collection schedule, so the figures cover the whole interval.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * intervalMs));
  let pending = nextNotification(intervalMs * 5);
  let startedMs = performance.now();
  sim.apply({ fail_check: 'network' });
  const fired = await pending;
  if (fired.status !== 'firing') throw new Error(`expected firing, got ${fired.status}`);
  firing.push(fired.arrivedMs - startedMs);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * intervalMs));
  pending = nextNotification(intervalMs * 5);
  startedMs = performance.now();
  sim.apply({ recover_check: 'network' });
  const cleared = await pending;
  if (cleared.status !== 'resolved') throw new Error(`expected resolved, got ${cleared.status}`);
  resolved.push(cleared.arrivedMs - startedMs);
}

await new Promise((resolve) => {
  daemon.once('exit', resolve);
  daemon.kill('SIGTERM');
});
await sim.close();
receiver.close();

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
};
const row = (name, values) =>
  `| ${name} | ${values.length} | ${percentile(values, 0.5).toFixed(0)} | ${percentile(values, 0.99).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`;
const budget = intervalMs + 250;
console.log(`daemon ${main}; collection interval ${INTERVAL}; budget (interval + 250 ms) ${budget} ms`);
console.log(`load average (1, 5, 15 min) at start ${loadAtStart}, at end ${load()}\n`);
console.log('| notification | flips | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|');
console.log(row('health flip → firing webhook', firing));
console.log(row('recovery → resolved webhook', resolved));
const p99 = Math.max(percentile(firing, 0.99), percentile(resolved, 0.99));
console.log(`\np99 ${p99.toFixed(0)} ms ${p99 <= budget ? '<=' : '>'} budget ${budget} ms: ${p99 <= budget ? 'PASS' : 'FAIL'}`);
process.exit(p99 <= budget ? 0 : 1);
