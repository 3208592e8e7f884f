// The fleet benchmark on real shapes: N simulated nodes answering Mainnet-sized bodies (1,800 peers,
// 1,500 validators, full health details), the daemon started as the README starts it (`npm start`
// runs `node dist/main.js`, which applies its own process settings; PROCESS_SETTINGS=off runs it
// without them, for a comparison) with the default
// collectors at their default intervals and alerts on, held to one core (taskset; the simulator and
// this harness on the other). Over WINDOW_S it measures the daemon's CPU and RSS, its garbage collections, the
// share of its CPU that V8's worker threads took (the collector's concurrent marking), V8
// allocation and event loop utilization (bench/gc-probe.mjs), a gzip scrape every SCRAPE_S (latency, age of its newest data,
// lagging collectors), where its resident memory is at the window's end, then SIGTERM; then the floor (bench/fleet-floor.mjs) makes the same requests
// to the same nodes at the same rate, on the same core, for the same time. It prints the machine
// (CPU model, cores, load before and after) and the simulated nodes' CPU in each window (on a slow
// machine their one core fills, and late answers then cost both sides connections): absolute cores
// and MB hold for that machine only, the ratio to the floor of the same run is what compares between machines.
//
// Usage: npm run -s build && NODES=1000 node bench/fleet-real.mjs
//   NODES (100), WINDOW_S (60), SETTLE_S (70), SCRAPE_S (2: the stress case; 15 as Prometheus scrapes),
//   PROCESS_SETTINGS (on | off), ONE_CORE (1), PEERS (1800), VALIDATORS (1500), SIMULATOR_NODE (the simulator's node binary),
//   TRACE_PROMOTION (0; 1 runs the daemon with V8's --trace-gc-nvp and reports what its scavenges promoted: in all, and the median and most of each 10 s),
//   EXTRA_CONFIG (YAML put before the config's targets, e.g. "global:\n  max_concurrent_collections: 512\n"),
//   FUNCTION_TIMING (0; 1 preloads bench/function-timing.mjs into the daemon and reports where its own work went in the window)
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { request } from 'undici';
import { daemonEnv } from './daemon-env.mjs';
import { simulatorNodeVersion, startFleetSimulator } from './fleet-simulator.mjs';
import { freePort } from './ports.mjs';
import { promotedBetween, traceOffset } from './gc-trace.mjs';
import { cpuSeconds, watch } from './proc-stats.mjs';

const NODES = Number(process.env.NODES ?? 100);
const WINDOW_S = Number(process.env.WINDOW_S ?? 60);
const SETTLE_S = Number(process.env.SETTLE_S ?? 70);
const ONE_CORE = process.env.ONE_CORE !== '0';
const PEERS = Number(process.env.PEERS ?? 1800);
const VALIDATORS = Number(process.env.VALIDATORS ?? 1500);
const SCRAPE_S = Number(process.env.SCRAPE_S ?? 2);
const TRACE_PROMOTION = process.env.TRACE_PROMOTION === '1';
const FUNCTION_TIMING = process.env.FUNCTION_TIMING === '1';
const SIM_NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const gunzipAsync = promisify(gunzip);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const main = new URL('../dist/main.js', import.meta.url).pathname;
const children = [];
// The harness (its scrapes ungzip a body of up to 60 MB every SCRAPE_S) shares the simulated nodes'
// core: left free, the scheduler put it on the daemon's, and at 2,000 nodes it took enough of it to
// leave a thousand collectors lagging that lag none with the harness held off.
if (ONE_CORE) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `command args` pinned to one CPU when ONE_CORE, as a 1-core container limit would hold it. */
function pinned(cpu, args, options) {
  return ONE_CORE ? spawn('taskset', ['-c', String(cpu), ...args], options) : spawn(args[0], args.slice(1), options);
}

const { processes: simulators, port: simPort } = await startFleetSimulator({
  nodes: NODES,
  peers: PEERS,
  validators: VALIDATORS,
  cpu: ONE_CORE ? 1 : undefined,
});
children.push(...simulators);
const hook = createServer((request, response) => request.resume().on('end', () => response.writeHead(200).end()));
await new Promise((resolve) => hook.listen(0, '127.0.0.1', resolve));

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-fleet-real-'));
const loadBefore = loadavg();
/** The environment of a measured process: its GC and allocation totals written to `file` every second. */
const probed = (env, file) => ({
  ...env,
  GC_PROBE_FILE: join(dir, file),
  NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${new URL('./gc-probe.mjs', import.meta.url).href}`.trim(),
});
/** The totals a preload (bench/gc-probe.mjs, bench/function-timing.mjs) last wrote to `file`. */
const probeTotals = (file) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
/** The daemon's function timings now, and when they were read; undefined without FUNCTION_TIMING. */
const functionTotals = () => (FUNCTION_TIMING ? { totals: probeTotals('daemon-functions.json'), atMs: performance.now() } : undefined);
/** The daemon's environment: probed, and with FUNCTION_TIMING its functions timed too. */
const timed = (env) =>
  FUNCTION_TIMING
    ? {
        ...env,
        FUNCTION_TIMING_FILE: join(dir, 'daemon-functions.json'),
        NODE_OPTIONS: `${env.NODE_OPTIONS} --import=${new URL('./function-timing.mjs', import.meta.url).href}`,
      }
    : env;
const targets = Array.from({ length: NODES }, (_, index) => `  - { name: node-${index}, url: "http://127.0.0.1:${simPort + index}" }`);
writeFileSync(
  join(dir, 'config.yaml'),
  `${process.env.EXTRA_CONFIG ?? ''}targets:\n${targets.join('\n')}\nalerts:\n  state_dir: ${join(dir, 'state')}\n  receivers:\n    - { name: hook, type: webhook, url: "http://127.0.0.1:${hook.address().port}/hook" }\n`,
);
const gcTrace = join(dir, 'daemon-gc-trace.txt');
const daemonPort = await freePort();
const origin = `http://127.0.0.1:${daemonPort}`;
const spawnedMs = performance.now();
const daemon = pinned(
  0,
  [
    process.execPath,
    // Carried into the daemon's re-execution with its process settings, as execArgv.
    ...(TRACE_PROMOTION ? ['--trace-gc-nvp'] : []),
    main,
    `--config.file=${join(dir, 'config.yaml')}`,
    `--web.listen-address=127.0.0.1:${daemonPort}`,
    '--log.level=error',
  ],
  { env: timed(probed(daemonEnv, 'daemon-gc.json')), stdio: ['ignore', TRACE_PROMOTION ? openSync(gcTrace, 'w') : 'ignore', 'inherit'] },
);
children.push(daemon);
while (
  (await fetch(`${origin}/-/ready`).then(
    (response) => response.status,
    () => 0,
  )) !== 200
)
  await sleep(500);
const readyS = (performance.now() - spawnedMs) / 1000;
await sleep(SETTLE_S * 1000);

/** The daemon's pid under taskset is the spawned one: taskset execs the command. */
const rssBeforeWindow = residentOf(daemon.pid);
// The requests the floor replays are counted between two scrapes: over the time that really passed
// between them, which a slow scrape of a large fleet's body stretches beyond WINDOW_S.
const countedFromMs = performance.now();
const textBefore = await scrapeText();
const requestsBefore = requestCounts(textBefore);
const gcBefore = probeTotals('daemon-gc.json');
const functionsBefore = functionTotals();
const traceBefore = TRACE_PROMOTION ? traceOffset(gcTrace) : 0;
const simulatorDuringDaemon = simulatorCpu();
const [{ cores, mainThread, v8WorkerShare, rssMax, faultsPerS }, scrapes] = await Promise.all([
  watch(daemon.pid, WINDOW_S),
  scrapeEvery(SCRAPE_S, WINDOW_S),
]);
const simulatorCoresDaemon = simulatorDuringDaemon();
const gcAfter = probeTotals('daemon-gc.json');
const functionsAfter = functionTotals();
const promotion = TRACE_PROMOTION ? promotedBetween(gcTrace, traceBefore, traceOffset(gcTrace)) : undefined;
const countedS = (performance.now() - countedFromMs) / 1000;
const textAfter = await scrapeText();
const requestsAfter = requestCounts(textAfter);
const memory = memoryOf(daemon.pid, textAfter);

const stopStarted = performance.now();
daemon.kill('SIGTERM');
const exitCode = await new Promise((resolve) => daemon.once('exit', (code) => resolve(code)));
const stopS = (performance.now() - stopStarted) / 1000;

const plan = [...requestsAfter]
  .map(([key, after]) => ({ ...requestOf(key), count: Math.round(after - (requestsBefore.get(key) ?? 0)) }))
  .filter((entry) => entry.count > 0);
const perNodeMinute = plan.reduce((sum, entry) => sum + entry.count, 0) / NODES / (countedS / 60);
const floorEnv = probed(process.env, 'floor-gc.json');
const floorChild = ONE_CORE
  ? spawn('taskset', ['-c', '0', process.execPath, new URL('./fleet-floor.mjs', import.meta.url).pathname], {
      env: floorEnv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
  : fork(new URL('./fleet-floor.mjs', import.meta.url), { env: floorEnv });
children.push(floorChild);
// Measured from when it is loaded and starts on the plan, as the daemon's window starts settled.
await new Promise((resolve) => floorChild.once('message', resolve));
// Its first totals file is written a second after it loaded.
await sleep(1100);
const floorGcBefore = probeTotals('floor-gc.json');
// At the daemon's rate: its requests over the time they were counted in.
floorChild.send({ plan, windowS: countedS });
const floorDone = new Promise((resolve) => floorChild.once('message', resolve));
const simulatorDuringFloor = simulatorCpu();
const floorWindowS = Math.round(countedS);
const floor = await watch(floorChild.pid, floorWindowS);
const simulatorCoresFloor = simulatorDuringFloor();
const floorGcAfter = probeTotals('floor-gc.json');
const floorResult = await floorDone;
for (const simulator of simulators) simulator.kill();
hook.close();

const worst = (pick) => Math.max(...scrapes.map(pick));
const requests = plan.reduce((sum, entry) => sum + entry.count, 0);
const series = seriesOf(textBefore);
const gc = gcWindow(gcBefore, gcAfter, requests, WINDOW_S);
const floorGc = gcWindow(floorGcBefore, floorGcAfter, floorResult.requests, floorWindowS);
const loadAfter = loadavg();
const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `fleet benchmark on real shapes: ${NODES} nodes (${PEERS} peers, ${VALIDATORS} validators each), default intervals, alerts on, ` +
    `as npm start runs it${process.env.PROCESS_SETTINGS === 'off' ? ', process settings off' : ''}${ONE_CORE ? ', daemon held to one core' : ''}, ` +
    `a gzip scrape every ${SCRAPE_S} s; node ${process.version}${simulatorNodeVersion === process.version ? '' : ` (the simulator on ${simulatorNodeVersion})`}; ${new Date().toISOString()}`,
);
console.log(
  `machine: ${cpuModel}, ${cpus().length} cores; load average ${loadBefore.map((load) => load.toFixed(2)).join(' ')} before, ` +
    `${loadAfter.map((load) => load.toFixed(2)).join(' ')} after (absolute cores and MB hold for this machine and load only; compare ratios)`,
);
console.log(`\n| ${WINDOW_S} s window | avaxmon | floor | ratio |\n|---|---|---|---|`);
console.log(`| CPU cores | ${cores.toFixed(3)} | ${floor.cores.toFixed(3)} | **${(cores / floor.cores).toFixed(2)}x** |`);
console.log(
  `| main thread, cores: user (JavaScript, GC pauses) + system (its system calls: sockets) | ${mainThread.user.toFixed(3)} + ${mainThread.system.toFixed(3)} | ` +
    `${floor.mainThread.user.toFixed(3)} + ${floor.mainThread.system.toFixed(3)} | ${((mainThread.user + mainThread.system) / (floor.mainThread.user + floor.mainThread.system)).toFixed(2)}x |`,
);
console.log(`| RSS max MB | ${rssMax.toFixed(0)} | ${floor.rssMax.toFixed(0)} | ${(rssMax / floor.rssMax).toFixed(2)}x |`);
console.log(`| GC pauses, share of the window | ${gc.share} | ${floorGc.share} | |`);
console.log(
  `| V8 worker threads (concurrent marking and sweeping, compiling), share of the CPU | ${(100 * v8WorkerShare).toFixed(0)} % | ${(100 * floor.v8WorkerShare).toFixed(0)} % | |`,
);
console.log(
  `| minor page faults per second (memory touched for the first time since mapped) | ${faultsPerS.toFixed(0)} | ${floor.faultsPerS.toFixed(0)} | |`,
);
console.log(`| garbage collections (full) | ${gc.count} | ${floorGc.count} | |`);
console.log(`| event loop utilization (seconds at least 90 % busy) | ${gc.loop} | ${floorGc.loop} | |`);
console.log(`| V8 heap allocated MB/s | ${gc.mbPerS} | ${floorGc.mbPerS} | ${(gc.bytes / floorGc.bytes).toFixed(2)}x |`);
console.log(`| V8 heap allocated KB per upstream request | ${gc.kbPerRequest} | ${floorGc.kbPerRequest} | |`);
if (promotion)
  console.log(
    `| promoted by ${promotion.scavenges} scavenges MB a minute (KB per upstream request); MB in 10 s, median and most | ` +
      `${(promotion.promoted / 1e6 / (WINDOW_S / 60)).toFixed(0)} (${(promotion.promoted / 1e3 / Math.max(1, requests)).toFixed(1)}); ` +
      `${(promotion.medianPer10s / 1e6).toFixed(1)}, ${(promotion.mostPer10s / 1e6).toFixed(1)} | | |`,
  );
console.log(
  `| RSS at the window's end MB: anonymous (V8 heap committed: young generation, the rest; external; glibc's main heap) / file-backed | ` +
    `${memory.anonymous} (${memory.heapNew}, ${memory.heapRest}; ${memory.external}; ${memory.glibcHeap}) / ${memory.file} | | |`,
);
console.log(
  `| RSS before the window MB (start-up and SETTLE_S: glibc's heap and V8's keep what start-up took) | ${rssBeforeWindow.toFixed(0)} | | |`,
);
console.log(
  `| upstream connections opened per second (the floor opens its pools in the window) | ${gc.connectionsPerS} | ${floorGc.connectionsPerS} | |`,
);
console.log(
  `| the simulated nodes' CPU, cores of their one (near 1: the nodes answered late and set the pace) | ${simulatorCoresDaemon.toFixed(2)} | ${simulatorCoresFloor.toFixed(2)} | |`,
);
console.log(
  `| seconds the requests were counted over (avaxmon) and replayed over (floor) | ${countedS.toFixed(1)} | ${floorResult.elapsedS.toFixed(1)} | |`,
);
console.log(
  `| requests per node per minute | ${perNodeMinute.toFixed(1)} | ${(floorResult.requests / NODES / (floorResult.elapsedS / 60)).toFixed(1)} (${floorResult.failures} failed) | |`,
);
console.log(`\n| scrapes (gzip, every ${SCRAPE_S} s) | value |\n|---|---|`);
console.log(`| scrapes / failed | ${scrapes.length} / ${scrapes.filter((scrape) => !scrape.ok).length} |`);
const slowest = scrapes.reduce((slow, scrape) => (scrape.ms > slow.ms ? scrape : slow));
console.log(
  `| slowest scrape ms (until its headers: the daemon's wait; the rest: sending the body) | ${slowest.ms.toFixed(0)} (${slowest.headersMs.toFixed(0)}) |`,
);
console.log(`| oldest newest-data age s | ${worst((scrape) => scrape.newestAgeS).toFixed(1)} |`);
const mostLagging = scrapes.reduce((most, scrape) => (scrape.lagging > most.lagging ? scrape : most));
console.log(
  `| most lagging collectors (older than two intervals) | ${mostLagging.lagging}${mostLagging.lagging > 0 ? ` (${mostLagging.atS.toFixed(0)} s into the window: ${mostLagging.laggingBy})` : ''} |`,
);
console.log(`| collection concurrency cap, narrowest to widest | ${-worst((scrape) => -scrape.cap)} to ${worst((scrape) => scrape.cap)} |`);
console.log(`| body KiB (gzip) | ${(scrapes.at(-1).gzipBytes / 1024).toFixed(0)} |`);
console.log(`| series per node (of ${series.total} in the body) | ${(series.perTarget / NODES).toFixed(0)} |`);
console.log(`| /-/ready after s (the first round: on a slow machine the simulated nodes set its pace) | ${readyS.toFixed(1)} |`);
console.log(`| SIGTERM | exit ${exitCode} after ${stopS.toFixed(2)} s |`);
if (functionsBefore) {
  console.log(
    `\n| the daemon's own work (wall time in the window; indented: part of the line above) | ms a minute | calls a minute | µs a call |\n|---|---|---|---|`,
  );
  const minutes = (functionsAfter.atMs - functionsBefore.atMs) / 60_000;
  for (const [label, after] of Object.entries(functionsAfter.totals)) {
    const calls = after.calls - functionsBefore.totals[label].calls;
    const ms = after.ms - functionsBefore.totals[label].ms;
    const perMinute = (value) => (value / minutes).toFixed(0);
    console.log(
      `| ${label.replace(/^( +)/, (indent) => '&nbsp;'.repeat(indent.length))} | ${perMinute(ms)} | ${perMinute(calls)} | ${calls > 0 ? ((1000 * ms) / calls).toFixed(0) : '-'} |`,
    );
  }
}
if (process.env.SERIES_DETAIL === '1') {
  console.log('\n| family | series per node |\n|---|---|');
  for (const [family, count] of [...series.byFamily].sort((a, b) => b[1] - a[1]))
    console.log(`| ${family} | ${(count / NODES).toFixed(1)} |`);
}
process.exit(0);

/** Series in a text body: all, those labelled with a target, and those per family. */
function seriesOf(text) {
  let total = 0;
  let perTarget = 0;
  const byFamily = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    total++;
    if (!line.includes('target="')) continue;
    perTarget++;
    const family = line.slice(0, line.search(/[{ ]/));
    byFamily.set(family, (byFamily.get(family) ?? 0) + 1);
  }
  return { total, perTarget, byFamily };
}

/**
 * Where the daemon's resident memory is, at one moment: anonymous (V8's heap as committed, split into
 * the young generation and the rest; external memory, mostly Buffers, which glibc's main heap holds
 * with the rest of what native code allocates, free chunks below its top included) and file-backed
 * (the node binary's pages), in MB.
 */
function memoryOf(pid, text) {
  const smaps = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(smaps)?.[1] ?? 0) / 1024;
  const mb = (pattern) => Number(pattern.exec(text)?.[1] ?? Number.NaN) / 1e6;
  const heap = mb(/^nodejs_heap_size_total_bytes (\S+)$/m);
  const heapNew = mb(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)$/m);
  const fixed = (value) => value.toFixed(0);
  return {
    anonymous: fixed(kb('Anonymous')),
    file: fixed(kb('Rss') - kb('Anonymous')),
    heapNew: fixed(heapNew),
    heapRest: fixed(heap - heapNew),
    external: fixed(mb(/^nodejs_external_memory_bytes (\S+)$/m)),
    glibcHeap: fixed(glibcHeapOf(pid)),
  };
}

/** Starts a measure of the simulator's CPU; the function it returns gives the cores it used since. */
function simulatorCpu() {
  const seconds = () => simulators.reduce((sum, simulator) => sum + cpuSeconds(simulator.pid), 0);
  const before = seconds();
  const startedMs = performance.now();
  return () => (seconds() - before) / ((performance.now() - startedMs) / 1000);
}

/** A process's resident memory in MB. */
function residentOf(pid) {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
}

/** The resident MB of glibc's main heap (the `[heap]` mapping, grown by brk): it shrinks only from its top. */
function glibcHeapOf(pid) {
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const at = smaps.indexOf(' [heap]\n');
  return at < 0 ? 0 : Number(/^Rss:\s+(\d+)/m.exec(smaps.slice(at))?.[1] ?? 0) / 1024;
}

/** The event loop's busy share between two totals of bench/gc-probe.mjs, and its seconds at least 90 % busy. */
function loopShare(before, after) {
  const active = after.loopActiveMs - before.loopActiveMs;
  const idle = after.loopIdleMs - before.loopIdleMs;
  return `${((100 * active) / Math.max(1, active + idle)).toFixed(0)} % (${after.loopSaturatedSeconds - before.loopSaturatedSeconds} s)`;
}

/** Garbage collection and V8 allocation between two totals of bench/gc-probe.mjs. */
function gcWindow(before, after, requestCount, seconds) {
  const bytes = after.allocatedBytes - before.allocatedBytes;
  return {
    bytes,
    count: `${after.gcs - before.gcs} (${after.fullGcs - before.fullGcs})`,
    share: `${((after.gcMs - before.gcMs) / 10 / seconds).toFixed(1)} %`,
    mbPerS: (bytes / 1e6 / seconds).toFixed(1),
    kbPerRequest: (bytes / 1e3 / Math.max(1, requestCount)).toFixed(1),
    loop: loopShare(before, after),
    connectionsPerS: ((after.connections - before.connections) / seconds).toFixed(1),
  };
}

/** A gzip scrape every `periodS` over `seconds`, each on time unless the one before it is still running. */
async function scrapeEvery(periodS, seconds) {
  const scrapes = [];
  const startedMs = performance.now();
  for (let atS = 0; atS < seconds; atS += periodS) {
    await sleep(startedMs + atS * 1000 - performance.now());
    scrapes.push({ atS: (performance.now() - startedMs) / 1000, ...(await timedGzipScrape()) });
  }
  return scrapes;
}

async function scrapeText() {
  return (await fetch(`${origin}/metrics`)).text();
}

/** One gzip scrape: latency, and from its body the newest data's age and the lagging collectors. */
async function timedGzipScrape() {
  const started = performance.now();
  try {
    const response = await request(`${origin}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
    const headersMs = performance.now() - started;
    const gzipped = Buffer.from(await response.body.arrayBuffer());
    const ms = performance.now() - started;
    // Off the harness's main thread: its timers keep the window's clock.
    const text = (response.headers['content-encoding'] === 'gzip' ? await gunzipAsync(gzipped) : gzipped).toString('utf8');
    let newest = 0;
    for (const value of familySeries(text, 'avaxmon_collector_last_success_timestamp_seconds').values()) newest = Math.max(newest, value);
    const lagging = familySeries(text, 'avaxmon_collectors_lagging').get('') ?? 0;
    const laggingBy = lagging > 0 ? laggingByCollector(text, Date.now() / 1000) : '';
    const cap = familySeries(text, 'avaxmon_collection_concurrency_limit').get('') ?? Number.NaN;
    return {
      ok: response.statusCode === 200,
      ms,
      headersMs,
      gzipBytes: gzipped.length,
      newestAgeS: Date.now() / 1000 - newest,
      lagging,
      laggingBy,
      cap,
    };
  } catch {
    return {
      ok: false,
      ms: performance.now() - started,
      headersMs: Number.NaN,
      gzipBytes: 0,
      newestAgeS: Number.POSITIVE_INFINITY,
      lagging: 0,
      laggingBy: '',
      cap: Number.NaN,
    };
  }
}

/**
 * A family's series in a text body, value by label set ('' for none), read from its own block: at
 * 2,000 nodes a regular expression over the whole 60 MB body took the harness a second a scrape.
 */
function familySeries(text, name) {
  const series = new Map();
  const starts = [`\n${name}{`, `\n${name} `].map((prefix) => text.indexOf(prefix)).filter((at) => at >= 0);
  if (starts.length === 0) return series;
  const start = Math.min(...starts) + 1;
  const end = text.indexOf('\n#', start);
  for (const line of text.slice(start, end < 0 ? text.length : end).split('\n')) {
    if (!line.startsWith(name)) continue;
    const space = line.lastIndexOf(' ');
    if (line[name.length] === '{') series.set(line.slice(name.length + 1, space - 1), Number(line.slice(space + 1)));
    else if (line[name.length] === ' ') series.set('', Number(line.slice(space + 1)));
  }
  return series;
}

/** Which collectors lag in a body, counted as the daemon counts avaxmon_collectors_lagging: "peers 250, health 12". */
function laggingByCollector(text, nowS) {
  const succeeding = familySeries(text, 'avaxmon_collector_success');
  const intervals = familySeries(text, 'avaxmon_collector_interval_seconds');
  const counts = new Map();
  for (const [labels, lastSuccess] of familySeries(text, 'avaxmon_collector_last_success_timestamp_seconds')) {
    if (succeeding.get(labels) !== 1 || nowS - lastSuccess <= 2 * (intervals.get(labels) ?? Number.POSITIVE_INFINITY)) continue;
    const collector = /collector="([^"]*)"/.exec(labels)[1];
    counts.set(collector, (counts.get(collector) ?? 0) + 1);
  }
  return [...counts].map(([collector, count]) => `${collector} ${count}`).join(', ');
}

/** Successful requests by "target method", from avaxmon_rpc_requests_total. */
function requestCounts(text) {
  const counts = new Map();
  for (const [, target, method, value] of text.matchAll(
    /^avaxmon_rpc_requests_total\{target="(node-\d+)",method="([^"]+)",outcome="success"\} (\S+)$/gm,
  ))
    counts.set(`${target} ${method}`, Number(value));
  return counts;
}

/** The request avaxmon sends for a method, close enough in shape and size for the floor. */
function requestOf(key) {
  const [target, method] = key.split(' ');
  const nodeOrigin = `http://127.0.0.1:${simPort + Number(target.slice('node-'.length))}`;
  if (method.startsWith('GET ')) return { origin: nodeOrigin, path: method.slice(4) };
  const params =
    {
      'info.isBootstrapped': { chain: 'P' },
      'platform.getCurrentValidators': { nodeIDs: [SIM_NODE_ID] },
      'platform.getValidatorsAt': { height: 1 },
      'platform.getBlockchainStatus': { blockchainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM' },
    }[method] ?? {};
  const path = method.startsWith('eth_')
    ? '/ext/bc/C/rpc'
    : method.startsWith('platform.')
      ? '/ext/bc/P'
      : method.startsWith('avm.')
        ? '/ext/bc/X'
        : method.startsWith('health.')
          ? '/ext/health'
          : '/ext/info';
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: method.startsWith('eth_') ? [] : params });
  return { origin: nodeOrigin, path, body };
}
