// The fleet benchmark: what an operator watching N nodes from one avaxmon gets, with collection live.
// Starts the simulator serving N nodes on consecutive ports (one process; each node with 20 validators
// and 20 peers, so the simulated fleet stays cheap: it is not what is measured), the built daemon collecting
// from all of them at 15 s with alerts on (a webhook receiver answering 200), then measures side by side:
// /metrics req/s and p99 of avaxmon, of prom-client rendering the same series per scrape, and of a plain
// node:http server sending the same bytes from memory; the daemon's CPU cores and RSS while it only
// collects; stale collectors (last success older than two intervals) and skipped runs; a scrape storm
// (SCRAPERS concurrent gzip scrapers for STORM_S seconds: errors and the slowest answer); and SIGTERM
// with collection in flight (exit code and time to exit).
//
// Usage: npm run -s build && NODES=100 node bench/fleet.mjs
//   NODES (100), INTERVAL_S (15), SETTLE_S (one interval + 5), IDLE_S (30: the collection-only window),
//   LOAD_S (10 per path), CONNECTIONS (4), SCRAPERS (50), STORM_S (60 at NODES >= 1000, else 10).
// Load comes from wrk (Debian package `wrk`); the figures are only as good as the machine is quiet.
import { execFile, fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';
import { cpuSeconds, rssMb } from './proc-stats.mjs';

const WRK = '/usr/bin/wrk';
const NODES = Number(process.env.NODES ?? 100);
const INTERVAL_S = Number(process.env.INTERVAL_S ?? 15);
const SETTLE_S = Number(process.env.SETTLE_S ?? INTERVAL_S + 5);
const IDLE_S = Number(process.env.IDLE_S ?? 30);
const LOAD_S = Number(process.env.LOAD_S ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 4);
const SCRAPERS = Number(process.env.SCRAPERS ?? 50);
const STORM_S = Number(process.env.STORM_S ?? (NODES >= 1000 ? 60 : 10));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);

if (!existsSync(WRK)) throw new Error('bench/fleet.mjs needs wrk (apt-get install wrk)');
const main = new URL('../dist/main.js', import.meta.url).pathname;
const children = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

// A fleet of simulated nodes on consecutive ports, below the ephemeral range; another base if one is taken.
let sim;
let simPort;
for (let attempt = 0; !sim; attempt++) {
  simPort = 10_000 + Math.floor(Math.random() * (22_000 - NODES));
  const child = spawn(
    process.execPath,
    [main, 'simulate', '--nodes', String(NODES), '--port', String(simPort), '--validators', '20', '--peers', '20'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const listening = await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => /listening/.test(String(chunk)) && resolve(true));
    child.once('exit', () => resolve(false));
  });
  if (listening) sim = child;
  else if (attempt === 5) throw new Error('no free range of ports for the simulator');
}
children.push(sim);

// A webhook receiver that answers every notification.
let notifications = 0;
const hook = createServer((request, response) => {
  notifications++;
  request.resume().on('end', () => response.writeHead(200).end());
});
await new Promise((resolve) => hook.listen(0, '127.0.0.1', resolve));

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-fleet-'));
const targets = Array.from({ length: NODES }, (_, index) => `  - { name: node-${index}, url: "http://127.0.0.1:${simPort + index}" }`).join(
  '\n',
);
writeFileSync(
  join(dir, 'config.yaml'),
  `global: { interval: ${INTERVAL_S}s }\ntargets:\n${targets}\nalerts:\n  state_dir: ${join(dir, 'state')}\n  receivers:\n    - { name: hook, type: webhook, url: "http://127.0.0.1:${hook.address().port}/hook" }\n`,
);
const daemonPort = await freePort();
const origin = `http://127.0.0.1:${daemonPort}`;
const daemon = spawn(
  process.execPath,
  [main, `--config.file=${join(dir, 'config.yaml')}`, `--web.listen-address=127.0.0.1:${daemonPort}`, '--log.level=error'],
  {
    env: daemonEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
children.push(daemon);
const startedAt = performance.now();
while (
  (await fetch(`${origin}/-/ready`).then(
    (response) => response.status,
    () => 0,
  )) !== 200
)
  await sleep(250);
const readyS = (performance.now() - startedAt) / 1000;
await sleep(SETTLE_S * 1000);

// Collection only: CPU and RSS over IDLE_S.
const cpuBefore = cpuSeconds(daemon.pid);
let rssMax = 0;
for (let second = 0; second < IDLE_S; second++) {
  await sleep(1000);
  rssMax = Math.max(rssMax, rssMb(daemon.pid));
}
const cores = (cpuSeconds(daemon.pid) - cpuBefore) / IDLE_S;

const metricsText = await (await fetch(`${origin}/metrics`)).text();
const health = collectionHealth(metricsText);

const baselines = fork(new URL('./fleet-baselines.mjs', import.meta.url));
children.push(baselines);
baselines.send(metricsText);
const urls = await new Promise((resolve) => baselines.once('message', resolve));

async function wrk(url, { connections = CONNECTIONS, seconds = LOAD_S, gzip = false } = {}) {
  const args = [
    '-t2',
    `-c${connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '--latency',
    ...(gzip ? ['-H', 'Accept-Encoding: gzip'] : []),
    url,
  ];
  const { stdout } = await run(WRK, args, { maxBuffer: 1 << 20 });
  const ms = (pattern) => {
    const [, value, unit] = pattern.exec(stdout);
    return Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit];
  };
  const errors =
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
      .exec(stdout)
      ?.slice(1)
      .reduce((sum, n) => sum + Number(n), 0) ?? 0;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  return {
    requests: Number(/(\d+) requests in/.exec(stdout)[1]),
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)[1]),
    p99: ms(/99%\s+([\d.]+)(us|ms|s|m)\b/),
    max: ms(/Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)\b/),
    errors: errors + non2xx,
  };
}

const scrape = {};
for (const gzip of [false, true]) {
  for (const [name, url] of [
    ['avaxmon', `${origin}/metrics`],
    ['prom-client', urls.promclient],
    ['plain', urls.plain],
  ]) {
    scrape[`${name}${gzip ? ' gzip' : ''}`] = await wrk(url, { gzip });
  }
}
const storm = await wrk(`${origin}/metrics`, { connections: SCRAPERS, seconds: STORM_S, gzip: true });
const afterStorm = collectionHealth(await (await fetch(`${origin}/metrics`)).text());

// SIGTERM while collection is in flight (runs are spread over the interval, so some always are).
const queuedBeforeStop = sumOf(await (await fetch(`${origin}/metrics`)).text(), 'avaxmon_notification_queue_depth');
const stopStarted = performance.now();
daemon.kill('SIGTERM');
const exitCode = await new Promise((resolve) => daemon.once('exit', (code) => resolve(code)));
const stopS = (performance.now() - stopStarted) / 1000;

const outbox = stateDirAfterStop(join(dir, 'state'));

baselines.kill();
sim.kill();
hook.close();

const body = Buffer.byteLength(metricsText);
console.log(
  `fleet benchmark: ${NODES} simulated nodes, interval ${INTERVAL_S}s, alerts on; node ${process.version}; ${new Date().toISOString()}`,
);
console.log(
  `/metrics: ${(body / 1024).toFixed(0)} KiB, ${metricsText.split('\n').filter((line) => line && !line.startsWith('#')).length} series; ready after ${readyS.toFixed(1)} s`,
);
console.log('\n| path | req/s | p99 ms | max ms | errors |\n|---|---|---|---|---|');
for (const [name, result] of Object.entries(scrape)) {
  console.log(`| ${name} | ${result.rps.toFixed(0)} | ${result.p99.toFixed(1)} | ${result.max.toFixed(0)} | ${result.errors} |`);
}
const ratio = (a, b) => (scrape[a].rps / scrape[b].rps).toFixed(2);
console.log(
  `\navaxmon vs prom-client: ${ratio('avaxmon', 'prom-client')}x (gzip ${ratio('avaxmon gzip', 'prom-client gzip')}x); vs plain server: ${ratio('avaxmon', 'plain')}x (gzip ${ratio('avaxmon gzip', 'plain gzip')}x)`,
);
console.log(`\n| daemon, collection only (${IDLE_S} s) | value |\n|---|---|`);
console.log(`| CPU cores (average) | ${cores.toFixed(2)} |`);
console.log(`| RSS max MB | ${rssMax.toFixed(0)} |`);
console.log(`| collectors (failing) | ${health.collectors} (${health.failing}) |`);
console.log(`| stale collectors (no success within ${2 * INTERVAL_S} s) | ${health.stale} (after the storm: ${afterStorm.stale}) |`);
console.log(`| skipped runs | ${health.skipped} (after the storm: ${afterStorm.skipped}) |`);
console.log(`| abandoned runs | ${afterStorm.abandoned} |`);
console.log(
  `| ${SCRAPERS} gzip scrapers for ${STORM_S} s | ${storm.requests} scrapes, ${storm.errors} errors, p99 ${storm.p99.toFixed(0)} ms, slowest ${storm.max.toFixed(0)} ms |`,
);
console.log(`| SIGTERM with collection in flight | exit ${exitCode} after ${stopS.toFixed(2)} s |`);
console.log(`| webhook notifications received | ${notifications} |`);
console.log(
  `| outbox after SIGTERM | ${outbox.queued} queued (queue depth before: ${queuedBeforeStop}), ${outbox.unreadable} unreadable, ${outbox.temporary} temp files, lock ${outbox.lockReleased ? 'released' : 'LEFT'} |`,
);
process.exit(0);

/** What SIGTERM left in state_dir: every queued notification readable, no half-written file, the lock released. */
function stateDirAfterStop(stateDir) {
  const outboxDir = join(stateDir, 'outbox');
  const names = existsSync(outboxDir) ? readdirSync(outboxDir) : [];
  const readable = (name) => {
    try {
      return typeof JSON.parse(readFileSync(join(outboxDir, name), 'utf8')) === 'object';
    } catch {
      return false;
    }
  };
  const queued = names.filter((name) => name.endsWith('.json'));
  return {
    queued: queued.length,
    unreadable:
      queued.filter((name) => !readable(name)).length +
      (existsSync(join(stateDir, 'alerts.json')) && !readable(join('..', 'alerts.json')) ? 1 : 0),
    temporary: names.filter((name) => name.endsWith('.tmp')).length,
    lockReleased: !existsSync(join(stateDir, 'avaxmon.lock')),
  };
}

function sumOf(text, name) {
  return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce((total, [, value]) => total + Number(value), 0);
}

/** Stale collectors and skipped runs, from the daemon's own series. */
function collectionHealth(text) {
  const nowS = Date.now() / 1000;
  const values = (name) =>
    [...text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))].map(([, labels, value]) => ({ labels, value: Number(value) }));
  const lastSuccess = new Map(values('avaxmon_collector_last_success_timestamp_seconds').map(({ labels, value }) => [labels, value]));
  const collectors = values('avaxmon_collector_success').map(({ labels }) => labels);
  // A collector the simulated node cannot serve fails every run and never had a success: counted as failing, not stale.
  const stale = [...lastSuccess.values()].filter((seconds) => nowS - seconds > 2 * INTERVAL_S);
  const failing = values('avaxmon_collector_success').filter(({ value }) => value === 0).length;
  const sum = (name) => values(name).reduce((total, { value }) => total + value, 0);
  return {
    collectors: collectors.length,
    stale: stale.length,
    failing,
    skipped: sum('avaxmon_collector_skipped_runs_total'),
    abandoned: sum('avaxmon_collector_abandoned_runs_total'),
  };
}
