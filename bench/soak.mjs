// A soak: the daemon against TARGETS simulated nodes for DURATION, every node's health flipping every
// FLIP (so alerts fire and resolve all the time), upstream faults cycling on the other APIs, and one
// webhook receiver. Reports RSS growth after warm-up, open file descriptors, CPU, and notifications
// lost or sent twice. Not a test: it takes half an hour by default.
// Usage: npm run -s build && node bench/soak.mjs   (DURATION=30m, WARMUP=5m, TARGETS=10, INTERVAL=2s, FLIP=15s)
// Targets: RSS median of the last window <= 5% above the first window after warm-up; fds flat; 0 lost.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDuration } from '../dist/config/duration.js';
import { startSimulator } from '../dist/simulator/server.js';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';

const DURATION_MS = parseDuration(process.env.DURATION ?? '30m');
const WARMUP_MS = parseDuration(process.env.WARMUP ?? '5m');
const TARGETS = Number(process.env.TARGETS ?? 10);
const INTERVAL = process.env.INTERVAL ?? '2s';
const FLIP_MS = parseDuration(process.env.FLIP ?? '15s');
/** Faults on the non-health APIs, one node at a time, each for a few intervals. */
const FAULTS = ['slow', 'reset', 'http_500', 'plain_503', 'html', 'truncated', 'rpc_error'];
const FAULT_PATHS = ['/ext/info', '/ext/bc/P'];
const SAMPLE_MS = 5_000;
const main = new URL('../dist/main.js', import.meta.url).pathname;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The receiver: every notification by (alert fingerprint, status, startsAt), counted.
const received = new Map();
const receiver = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    for (const alert of JSON.parse(Buffer.concat(chunks).toString('utf8')).alerts ?? []) {
      const key = `${alert.fingerprint} ${alert.status} ${alert.startsAt}`;
      received.set(key, (received.get(key) ?? 0) + 1);
    }
    response.writeHead(200).end('{}');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const sims = await Promise.all(Array.from({ length: TARGETS }, () => startSimulator()));
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-soak-'));
const config = {
  global: { interval: INTERVAL, timeout: '1s' },
  targets: sims.map((sim, index) => ({ name: `node-${index}`, url: sim.url })),
  alerts: {
    state_dir: join(dir, 'state'),
    repeat_interval: '24d',
    flap_max_transitions: 1_000_000,
    retry: { initial_backoff: '500ms', max_backoff: '5s' },
    rules: { AvalancheNodeUnhealthy: { for: '0s' } },
    receivers: [
      {
        name: 'hook',
        type: 'webhook',
        url: `http://127.0.0.1:${receiver.address().port}/hook`,
        match: { alertname: 'AvalancheNodeUnhealthy' },
      },
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
for (let ready = false; !ready; await sleep(500))
  ready = await fetch(`${base}/-/ready`).then(
    (r) => r.ok,
    () => false,
  );

const procStatus = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${daemon.pid}/status`, 'utf8'))[1]);
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${daemon.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const samples = []; // { atMs, rssMiB, fds, cpu }
const startedMs = Date.now();
const sampler = setInterval(() => {
  samples.push({
    atMs: Date.now() - startedMs,
    rssMiB: procStatus('VmRSS') / 1024,
    fds: readdirSync(`/proc/${daemon.pid}/fd`).length,
    cpu: cpuSeconds(),
  });
  // A scrape, as Prometheus would: /metrics must keep being served throughout.
  fetch(`${base}/metrics`).then(
    (r) => r.arrayBuffer(),
    () => undefined,
  );
}, SAMPLE_MS);

// Every FLIP all nodes turn unhealthy or healthy again: two notifications per node per cycle.
let transitions = 0;
let failing = false;
const flipper = setInterval(() => {
  failing = !failing;
  for (const sim of sims) sim.apply(failing ? { fail_check: 'network' } : { recover_check: 'network' });
  transitions += sims.length;
}, FLIP_MS);
let faultIndex = 0;
const faulter = setInterval(() => {
  const sim = sims[faultIndex % sims.length];
  const kind = FAULTS[faultIndex % FAULTS.length];
  sim.apply({ fault: { match: FAULT_PATHS[faultIndex % FAULT_PATHS.length], kind, delay: '3s', for: '6s' } });
  faultIndex += 1;
}, 4_000);

await sleep(DURATION_MS);
clearInterval(flipper);
clearInterval(faulter);
if (failing) {
  for (const sim of sims) sim.apply({ recover_check: 'network' });
  transitions += sims.length;
}
const settleStarted = Date.now();
while ([...received.keys()].length < transitions && Date.now() - settleStarted < 60_000) await sleep(500);
await sleep(3_000);
clearInterval(sampler);

await new Promise((resolve) => {
  daemon.once('exit', resolve);
  daemon.kill('SIGTERM');
});
await Promise.all(sims.map((sim) => sim.close()));
receiver.close();

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
// Windows: the first after warm-up and the last, each up to 5 minutes.
const after = samples.filter((sample) => sample.atMs >= WARMUP_MS);
const windowMs = Math.min(300_000, (DURATION_MS - WARMUP_MS) / 2);
const first = after.filter((sample) => sample.atMs < WARMUP_MS + windowMs);
const last = after.filter((sample) => sample.atMs >= DURATION_MS - windowMs && sample.atMs <= DURATION_MS);
const growth = median(last.map((s) => s.rssMiB)) / median(first.map((s) => s.rssMiB)) - 1;
const cpuShare = (after.at(-1).cpu - after[0].cpu) / ((after.at(-1).atMs - after[0].atMs) / 1000);
const unique = received.size;
const total = [...received.values()].reduce((sum, count) => sum + count, 0);
const lost = Math.max(0, transitions - unique);

console.log(
  `${TARGETS} nodes, interval ${INTERVAL}, health flipping every ${FLIP_MS / 1000} s, faults cycling; ${DURATION_MS / 60_000} min, warm-up ${WARMUP_MS / 60_000} min\n`,
);
console.log('| window | samples | RSS median MiB | RSS max MiB | fds min | fds max |\n|---|---|---|---|---|---|');
for (const [name, rows] of [
  ['first after warm-up', first],
  ['last', last],
]) {
  console.log(
    `| ${name} | ${rows.length} | ${median(rows.map((s) => s.rssMiB)).toFixed(0)} | ${Math.max(...rows.map((s) => s.rssMiB)).toFixed(0)} | ${Math.min(...rows.map((s) => s.fds))} | ${Math.max(...rows.map((s) => s.fds))} |`,
  );
}
console.log(`\nRSS growth ${(growth * 100).toFixed(1)}% (target <= 5%); daemon CPU ${(cpuShare * 100).toFixed(0)}% of a core`);
console.log(`transitions ${transitions}; notifications received ${total} (${unique} distinct): lost ${lost}, sent twice ${total - unique}`);
const fdsFlat = Math.max(...last.map((s) => s.fds)) <= Math.max(...first.map((s) => s.fds)) + 5;
const pass = growth <= 0.05 && fdsFlat && lost === 0;
console.log(`\n${pass ? 'PASS' : 'FAIL'}`);
process.exit(pass ? 0 : 1);
