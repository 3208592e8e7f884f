// The control plane under a client that pays nothing: latency of /-/healthy and /metrics (p50/p99/max)
// and the daemon's RSS growth over its own baseline, in three cases, on the built daemon over loopback:
//   (a) CLIENTS anonymous clients send GET /api/v2/alerts and /api/v2/silences with 32 fresh
//       `filter=` regexes a request, back to back;
//   (b) 500 silences of 32 distinct regex matchers each are active (the first ones RE2 patterns
//       until the shared budget refuses, the rest literal patterns); the node is unhealthy in every
//       case, baseline included, so every evaluation matches its alerts against them;
//   (c) the daemon restarts on that state (time to ready, then the same measurement).
// Usage: npm run -s build && node bench/control-plane.mjs   (CLIENTS=4, SECONDS=15)
// Acceptance: p99 < 50 ms for both endpoints and RSS growth < 50 MB in each case.
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { cpuSeconds, rssMb } from './proc-stats.mjs';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';

const CLIENTS = Math.min(Number(process.env.CLIENTS ?? 4), 16);
const SECONDS = Math.min(Number(process.env.SECONDS ?? 15), 120);
const SILENCES = 500;
const MATCHERS = 32;
const PROBE_GAP_MS = 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (!isMainThread) await flood(workerData);
else await main();

/** One flooding client (a worker thread, so its work does not slow the probes): fresh patterns until the deadline. */
async function flood({ url, until, client }) {
  const counts = {};
  for (let request = 0; Date.now() < until; request++) {
    const filters = Array.from(
      { length: MATCHERS },
      (_, index) => `filter=${encodeURIComponent(`alertname=~"${client}${(request * MATCHERS + index).toString(36)}(a|b)+x"`)}`,
    ).join('&');
    const path = request % 2 ? '/api/v2/silences' : '/api/v2/alerts';
    const status = await fetch(`${url}${path}?${filters}`).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
    counts[status] = (counts[status] ?? 0) + 1;
    // A refused client waits as told, as a polite one would not: it retries at once.
  }
  const { parentPort } = await import('node:worker_threads');
  parentPort.postMessage(counts);
}

async function main() {
  const { startSimulator } = await import('../dist/simulator/server.js');
  const sim = await startSimulator();
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-control-plane-'));
  const stateDir = join(dir, 'state');
  const configFile = join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `global: { interval: 2s, timeout: 2s }
targets: [{ name: node, url: "${sim.url}" }]
alerts:
  state_dir: ${stateDir}
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
`,
  );
  console.log(`node ${process.version}, one simulated node, ${CLIENTS} flooding clients, ${SECONDS} s a case`);

  const spawnedAt = performance.now();
  let daemon = await startDaemon(configFile);
  console.log(
    `first start: ready ${(performance.now() - spawnedAt).toFixed(0)} ms after spawn (${(cpuSeconds(daemon.child.pid) * 1000).toFixed(0)} ms of daemon CPU)`,
  );
  // A failing check from the start: the baseline evaluates and shows the same alerts as the cases.
  sim.apply({ fail_check: 'router' });
  await measure(daemon, 2); // warm-up: first scrapes, JIT
  const baseline = await measure(daemon, SECONDS);
  report('baseline', baseline, baseline.rssMax);

  const until = Date.now() + SECONDS * 1000;
  const workers = Array.from(
    { length: CLIENTS },
    (_, client) => new Worker(new URL(import.meta.url), { workerData: { url: daemon.url, until, client } }),
  );
  const answers = Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
  const flooded = await measure(daemon, SECONDS);
  const counts = (await answers).reduce((all, each) => {
    for (const [status, count] of Object.entries(each)) all[status] = (all[status] ?? 0) + count;
    return all;
  }, {});
  report('(a) filter= flood', flooded, baseline.rssMax, `answers by status ${JSON.stringify(counts)}`);

  const created = await createSilences(daemon.url);
  const withSilences = await measure(daemon, SECONDS);
  report(
    `(b) ${created.re2 + created.literal} silences of ${MATCHERS} regex matchers`,
    withSilences,
    baseline.rssMax,
    `${created.re2} with RE2 patterns, ${created.literal} with literal ones; ${created.refused} RE2 silences refused by the budget ("${created.message}"); silences.json ${(statSync(join(stateDir, 'silences.json')).size / 1e6).toFixed(1)} MB`,
  );

  await stopDaemon(daemon);
  const restartedAt = performance.now();
  daemon = await startDaemon(configFile, daemon.port);
  const readyMs = performance.now() - restartedAt;
  const readyCpuMs = cpuSeconds(daemon.child.pid) * 1000;
  const listed = await (await fetch(`${daemon.url}/api/v2/silences`)).json();
  const restarted = await measure(daemon, SECONDS);
  report(
    '(c) restart on that state',
    restarted,
    baseline.rssMax,
    `ready ${readyMs.toFixed(0)} ms after spawn (${readyCpuMs.toFixed(0)} ms of daemon CPU), ${listed.filter((silence) => silence.status.state === 'active').length} active silences loaded`,
  );
  await stopDaemon(daemon);
  await sim.close();
}

async function startDaemon(configFile, port) {
  const listen = port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [
      new URL('../dist/main.js', import.meta.url).pathname,
      `--config.file=${configFile}`,
      `--web.listen-address=127.0.0.1:${listen}`,
      '--log.level=warn',
    ],
    { env: daemonEnv, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${listen}`;
  const started = performance.now();
  while (
    (await fetch(`${url}/-/ready`).then(
      (response) => response.status,
      () => 0,
    )) !== 200
  ) {
    if (performance.now() - started > 60_000) throw new Error('daemon not ready within 60 s');
    await sleep(20);
  }
  return { child, url, port: listen };
}

async function stopDaemon({ child }) {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/** Probes /-/healthy and /metrics back to back (a short gap between probes) and samples RSS, for `seconds`. */
async function measure(daemon, seconds) {
  const until = performance.now() + seconds * 1000;
  const probe = async (path) => {
    const times = [];
    while (performance.now() < until) {
      const started = performance.now();
      const response = await fetch(`${daemon.url}${path}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      times.push(performance.now() - started);
      await sleep(PROBE_GAP_MS);
    }
    return times;
  };
  let rssMax = 0;
  const sampler = (async () => {
    while (performance.now() < until) {
      rssMax = Math.max(rssMax, rssMb(daemon.child.pid));
      await sleep(250);
    }
  })();
  const cpuBefore = cpuSeconds(daemon.child.pid);
  const [healthy, metrics] = await Promise.all([probe('/-/healthy'), probe('/metrics'), sampler]);
  const cores = (cpuSeconds(daemon.child.pid) - cpuBefore) / seconds;
  return { healthy: stats(healthy), metrics: stats(metrics), rssMax, cores };
}

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) };
}

function report(name, result, baselineRss, note = '') {
  const line = (path, s) =>
    `    ${path.padEnd(10)} n=${s.count} p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  max ${s.max.toFixed(1)} ms`;
  console.log(
    `${name}: RSS peak ${result.rssMax.toFixed(0)} MB (${(result.rssMax - baselineRss).toFixed(1)} MB over baseline), daemon CPU ${result.cores.toFixed(3)} cores`,
  );
  console.log(line('/-/healthy', result.healthy));
  console.log(line('/metrics', result.metrics));
  if (note) console.log(`    ${note}`);
}

/**
 * SILENCES silences of MATCHERS distinct regex matchers on `target`: RE2 patterns while the budget
 * takes them, then literal ones. None matches the node, so every evaluation tries them all.
 */
async function createSilences(url) {
  const post = (matchers) =>
    fetch(`${url}/api/v2/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        matchers,
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
        createdBy: 'bench',
        comment: 'control-plane bench',
      }),
    });
  const result = { re2: 0, literal: 0, refused: 0, message: '' };
  let re2 = true;
  for (let silence = 0; silence < SILENCES; silence++) {
    const pattern = (matcher) => (re2 ? `n(a|b)-${silence}-${matcher}[0-9]+` : `n-${silence}-${matcher}|v-${silence}-${matcher}.*`);
    const matchers = Array.from({ length: MATCHERS }, (_, matcher) => ({ name: 'target', value: pattern(matcher), isRegex: true }));
    const response = await post(matchers);
    if (response.status === 200) {
      result[re2 ? 're2' : 'literal']++;
      continue;
    }
    const message = await response.json();
    if (!re2 || response.status !== 400) throw new Error(`silence ${silence}: ${response.status} ${message}`);
    result.refused++;
    result.message = String(message).slice(0, 90);
    re2 = false;
    silence--;
  }
  return result;
}
