// CPU cost of the validators collector at mainnet scale (2,000 validators, network_wide: true)
// against a bare JSON.parse of the same response body, measured in the same run. The simulator runs
// in a child process, so process.cpuUsage() here counts only the collector's side: request, body,
// parse and aggregation.
// Usage: npm run -s build && node --expose-gc bench/validators.mjs   (RUNS, VALIDATORS to tune)
import { fork } from 'node:child_process';
import { NodeClient } from '../dist/clients/avalanchego.js';
import { HttpClient } from '../dist/clients/http.js';
import { createValidatorsCollector } from '../dist/collectors/validators/collector.js';
import { parseConfig } from '../dist/config/load.js';
import { createLogger } from '../dist/runtime/log.js';
import { SelfMetrics } from '../dist/metrics/self-metrics.js';
import { SIM_NODE_ID } from '../dist/simulator/state.js';

const RUNS = Number(process.env.RUNS ?? 300);
const VALIDATORS = Number(process.env.VALIDATORS ?? 2000);
const WARMUP = 30;
const TARGET_RATIO = 1.5;

const child = fork(new URL('./validators-sim.mjs', import.meta.url), [String(VALIDATORS)]);
const simUrl = await new Promise((resolve) => child.once('message', resolve));

const answer = async (path, method) =>
  (
    await fetch(`${simUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
    })
  ).text();
// The body the collector receives: the whole primary set.
const body = await answer('/ext/bc/P', 'platform.getCurrentValidators');
// A run also asks the watched node's uptime and the upgrade times (small answers, fed from memory too).
const fedAnswers = new Map([
  ['platform.getCurrentValidators', body],
  ['info.uptime', await answer('/ext/info', 'info.uptime')],
  ['info.upgrades', await answer('/ext/info', 'info.upgrades')],
]);

const config = parseConfig(`targets:\n  - name: bench\n    url: ${simUrl}\n    validators: { node_ids: [self], network_wide: true }\n`);
const target = config.targets[0];
const http = new HttpClient({ maxResponseBytes: 64 * 1024 * 1024 });
const node = new NodeClient(http, new SelfMetrics({ version: 'bench', revision: 'bench' }), {
  target: 'bench',
  baseUrl: simUrl,
  headers: {},
  timeoutMs: 10_000,
});
// The same body fed without the socket: NodeClient, gorilla parsing and the collector, no transport.
const fedHttp = { request: async (request) => ({ status: 200, headers: {}, text: fedAnswers.get(JSON.parse(request.body).method) }) };
const fedNode = new NodeClient(fedHttp, new SelfMetrics({ version: 'bench', revision: 'bench' }), {
  target: 'bench',
  baseUrl: simUrl,
  headers: {},
  timeoutMs: 10_000,
});
const collector = createValidatorsCollector();
const context = {
  target,
  node,
  log: createLogger('error'),
  signal: new AbortController().signal,
  nowMs: Date.now(),
  memory: new Map(),
  // `self` already resolved, so every run is the one getCurrentValidators request.
  facts: { nodeId: SIM_NODE_ID, unavailableMethods: new Set() },
};

function cpuMs(usage) {
  return (usage.user + usage.system) / 1000;
}

async function measureCollector(nodeClient) {
  const run = async () => (await collector.collect({ ...context, node: nodeClient, nowMs: Date.now() })).samples.length;
  for (let index = 0; index < WARMUP; index++) await run();
  globalThis.gc?.();
  const before = process.cpuUsage();
  let samples = 0;
  for (let index = 0; index < RUNS; index++) samples = await run();
  return { perRunMs: cpuMs(process.cpuUsage(before)) / RUNS, samples };
}

function measureParse() {
  let sink = 0;
  for (let run = 0; run < WARMUP; run++) sink += JSON.parse(body).result.validators.length;
  globalThis.gc?.();
  const before = process.cpuUsage();
  for (let run = 0; run < RUNS; run++) sink += JSON.parse(body).result.validators.length;
  return { perRunMs: cpuMs(process.cpuUsage(before)) / RUNS, sink };
}

const parse = measureParse();
const fed = await measureCollector(fedNode);
const loopback = await measureCollector(node);
const ratio = fed.perRunMs / parse.perRunMs;
const line = (label, ms, extra = '') => console.log(`${label.padEnd(44)} ${ms.toFixed(2).padStart(7)} ms CPU per run ${extra}`);
console.log(
  `validators: ${VALIDATORS}, response body: ${(body.length / 1024 / 1024).toFixed(2)} MiB, runs: ${RUNS}, node ${process.version}`,
);
line('bare JSON.parse of the body', parse.perRunMs);
line('collector, body fed (parse + processing)', fed.perRunMs, `(${fed.samples} samples) ratio ${ratio.toFixed(2)}x`);
line('collector over loopback HTTP (+ transport)', loopback.perRunMs, `ratio ${(loopback.perRunMs / parse.perRunMs).toFixed(2)}x`);
console.log(`collector ratio: ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x) ${ratio <= TARGET_RATIO ? 'OK' : 'OVER TARGET'}`);

await http.close();
child.kill();
process.exitCode = ratio <= TARGET_RATIO ? 0 : 1;
