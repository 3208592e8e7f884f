// Where the daemon allocates: NODES simulated Mainnet-sized nodes (1,800 peers, 1,500 validators),
// the daemon with its default collectors (alerts off, or on as bench/fleet-real.mjs has them with
// ALERTS=1) under the inspector; after SETTLE_S, V8's
// sampling heap profiler over WINDOW_S, counting the objects collections freed too (what a
// `--heap-prof` profile leaves out). Prints V8 allocation in MB/s in all, by allocating function
// (self), by the function and its two callers, and by file, and per upstream request. Light enough
// to run beside other work; compare runs of the same NODES. SURVIVORS=1 leaves out what scavenges
// freed: what is left lived long enough to be promoted, which is what full collections pay for,
// or was freed by a full collection while young, so read a site by its share of what it allocates
// (a run without SURVIVORS), not by its bytes alone. ONE_CORE=1 holds the daemon to one core, as
// bench/fleet-real.mjs does: a saturated loop keeps objects alive longer.
//
// Usage: npm run -s build && NODES=30 node bench/alloc-profile.mjs
//   NODES (30), SETTLE_S (40), WINDOW_S (60), TOP (40), ALERTS (0 | 1), SURVIVORS (0 | 1), ONE_CORE (0 | 1),
//   PROFILE_OUT (a file for the raw profile, to open in Chrome's DevTools)
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleetSimulator } from './fleet-simulator.mjs';
import { freePort } from './ports.mjs';

const NODES = Number(process.env.NODES ?? 30);
const SETTLE_S = Number(process.env.SETTLE_S ?? 40);
const WINDOW_S = Number(process.env.WINDOW_S ?? 60);
const TOP = Number(process.env.TOP ?? 40);
const ALERTS = process.env.ALERTS === '1';
const SURVIVORS = process.env.SURVIVORS === '1';
const ONE_CORE = process.env.ONE_CORE === '1';
const main = new URL('../dist/main.js', import.meta.url).pathname;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { processes: simulators, port: simPort } = await startFleetSimulator({ nodes: NODES, cpu: ONE_CORE ? 1 : undefined });
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-alloc-profile-'));
const targets = Array.from({ length: NODES }, (_, index) => `  - { name: node-${index}, url: "http://127.0.0.1:${simPort + index}" }`);
let alerts = '';
if (ALERTS) {
  // Alerts as the fleet benchmark has them: the default rules, state saved, a webhook that answers.
  const hook = createServer((request, response) => request.resume().on('end', () => response.end()));
  await new Promise((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hook.unref();
  const url = `http://127.0.0.1:${hook.address().port}/hook`;
  alerts = `alerts:\n  state_dir: ${join(dir, 'state')}\n  receivers:\n    - { name: hook, type: webhook, url: "${url}" }\n`;
}
writeFileSync(join(dir, 'config.yaml'), `targets:\n${targets.join('\n')}\n${alerts}`);
const [daemonPort, inspectorPort] = [await freePort(), await freePort()];
// The daemon re-executes itself with its process settings; --inspect goes along, on the same port.
const daemon = spawn(
  ONE_CORE ? 'taskset' : process.execPath,
  [
    ...(ONE_CORE ? ['-c', '0', process.execPath] : []),
    `--inspect=127.0.0.1:${inspectorPort}`,
    main,
    `--config.file=${join(dir, 'config.yaml')}`,
    `--web.listen-address=127.0.0.1:${daemonPort}`,
    '--log.level=error',
  ],
  { stdio: ['ignore', 'ignore', 'ignore'] },
);
process.on('exit', () => {
  daemon.kill('SIGKILL');
  for (const simulator of simulators) simulator.kill('SIGKILL');
});
while (
  (await fetch(`http://127.0.0.1:${daemonPort}/-/ready`).then(
    (response) => response.status,
    () => 0,
  )) !== 200
)
  await sleep(500);
await sleep(SETTLE_S * 1000);

const [{ webSocketDebuggerUrl }] = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
const socket = new WebSocket(webSocketDebuggerUrl);
await new Promise((resolve) => socket.addEventListener('open', resolve));
let lastId = 0;
const answers = new Map();
socket.addEventListener('message', (event) => {
  const message = JSON.parse(event.data);
  answers.get(message.id)?.(message.result);
});
const call = (method, params = {}) =>
  new Promise((resolve) => {
    answers.set(++lastId, resolve);
    socket.send(JSON.stringify({ id: lastId, method, params }));
  });
await call('HeapProfiler.enable');
/** Upstream requests the daemon has made, from its own counter: scraped outside the sampled window. */
const requestsMade = async () => {
  const text = await (await fetch(`http://127.0.0.1:${daemonPort}/metrics`)).text();
  let sum = 0;
  for (const [, value] of text.matchAll(/^avaxmon_rpc_requests_total\{[^}]*\} (\S+)$/gm)) sum += Number(value);
  return sum;
};
const requestsBefore = await requestsMade();
await call('HeapProfiler.startSampling', {
  samplingInterval: 16_384,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: !SURVIVORS,
});
await sleep(WINDOW_S * 1000);
const { profile } = await call('HeapProfiler.stopSampling');
const requests = (await requestsMade()) - requestsBefore;
socket.close();
if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));

const byFunction = new Map();
const byStack = new Map();
const byFile = new Map();
let total = 0;
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
const frameName = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*\/dist\//, '') || '(native)'}:${lineNumber + 1}`;
const walk = (node, callers) => {
  const name = frameName(node.callFrame);
  total += node.selfSize;
  add(byFunction, name, node.selfSize);
  add(byStack, [name, ...callers.slice(-2).reverse()].join(' < '), node.selfSize);
  add(byFile, node.callFrame.url.replace(/^.*\/dist\//, '') || '(native)', node.selfSize);
  for (const child of node.children) walk(child, [...callers, name]);
};
walk(profile.head, []);
const rate = (bytes) => (bytes / 1e6 / WINDOW_S).toFixed(3).padStart(8);
console.log(
  `V8 ${SURVIVORS ? 'allocation that outlived scavenges' : 'allocation'} of the daemon at ${NODES} nodes${ALERTS ? ', alerts on' : ''}${ONE_CORE ? ', one core' : ''} over ${WINDOW_S} s: ${rate(total).trim()} MB/s; node ${process.version}`,
);
console.log(
  `${requests} upstream requests (${(requests / WINDOW_S).toFixed(1)}/s): ${(total / requests / 1024).toFixed(1)} KB per request in all`,
);
for (const [title, map] of [
  ['by function (self)', byFunction],
  ['by function and its two callers', byStack],
  ['by file', byFile],
]) {
  console.log(`\n${title}, MB/s`);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${rate(bytes)}  ${key}`);
}
process.exit(0);
