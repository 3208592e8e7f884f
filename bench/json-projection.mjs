// The field-only reader against JSON.parse, on the bodies the daemon reads that way: one simulated
// Mainnet-sized node (1,800 peers, 1,500 validators) asked once, as the collectors ask it, then in
// this process, in turns, the time and V8 allocation of
//   - JSON.parse of the body's text (decoding included: what the floor and the plain call pay),
//   - projectJson with the projection the daemon uses (read from the built collector's source, so
//     the figure is for what the daemon asks, not a copy),
//   - and, with BASELINE=<path of another build's dist/clients/json-projection.js>, that reader too.
// Allocation is what V8's heap grew by plus what collections freed (v8.GCProfiler), per read.
// Light: about 20 s, one core.
//
// Usage: npm run -s build && node bench/json-projection.mjs
//   ROUNDS (5), ROUND_MS (250), BASELINE (unset)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { freePort } from './ports.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ROUND_MS = Number(process.env.ROUND_MS ?? 250);
const dist = new URL('../dist/', import.meta.url);
const { projectJson, NOT_JSON } = await import(new URL('clients/json-projection.js', dist).href);
const { gorillaAnswer } = await import(new URL('clients/jsonrpc.js', dist).href);
const baseline = process.env.BASELINE ? await import(process.env.BASELINE) : undefined;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

/** The argument of `const NAME = gorillaAnswer(...)` in a built collector: the projection the daemon uses. */
function daemonProjection(file, name) {
  const source = readFileSync(new URL(file, dist), 'utf8');
  const found = source.match(new RegExp(`const ${name} = gorillaAnswer\\((.*)\\);`));
  if (!found) return undefined;
  return new Function(`return (${found[1]});`)();
}

const CASES = [
  { name: 'info.peers', path: '/ext/info', params: {}, projection: ['collectors/peers.js', 'PEERS_ANSWER'] },
  {
    name: 'platform.getValidatorsAt',
    path: '/ext/bc/P',
    params: 'height',
    projection: ['collectors/validator-weights.js', 'WEIGHTS_ANSWER'],
  },
  { name: 'info.acps', path: '/ext/info', params: {}, projection: ['collectors/upgrades.js', 'ACPS_ANSWER'] },
  // Asked whole only with validators.network_wide (off by default).
  {
    name: 'platform.getCurrentValidators',
    path: '/ext/bc/P',
    params: {},
    projection: ['collectors/validators/collector.js', 'VALIDATORS_ANSWER'],
  },
];

const port = await freePort();
const sim = spawn(
  process.execPath,
  [new URL('main.js', dist).pathname, 'simulate', '--nodes', '1', '--port', String(port), '--validators', '1500', '--peers', '1800'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise((resolve, reject) => {
  sim.stdout.on('data', (chunk) => /listening/.test(String(chunk)) && resolve());
  sim.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
});

async function ask(path, method, params) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return Buffer.from(await response.arrayBuffer());
}

let bodies;
try {
  const height = JSON.parse(String(await ask('/ext/bc/P', 'platform.getHeight', {}))).result.height;
  bodies = [];
  for (const test of CASES) bodies.push(await ask(test.path, test.name, test.params === 'height' ? { height } : test.params));
} finally {
  sim.kill();
}

/** Runs `read` for about ROUND_MS; returns [ms per read, bytes allocated per read]. */
function measure(read) {
  collectGarbage();
  const profiler = new GCProfiler();
  const usedBefore = getHeapStatistics().used_heap_size;
  profiler.start();
  let reads = 0;
  let sink;
  const start = process.hrtime.bigint();
  const until = start + BigInt(ROUND_MS * 1e6);
  let now;
  do {
    sink = read();
    reads++;
    now = process.hrtime.bigint();
  } while (now < until);
  const usedAfter = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let freed = 0;
  for (const gc of statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  if (sink === NOT_JSON) throw new Error('a body the reader refused');
  return [Number(now - start) / 1e6 / reads, (usedAfter - usedBefore + freed) / reads];
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => value.toFixed(3);
const kb = (value) => (value / 1024).toFixed(0);
const ratio = (value, floor) => (value / floor).toFixed(2);

console.log(`json-projection bench: node ${process.version}, ${ROUNDS} rounds of ${ROUND_MS} ms per reader, median round`);
console.log(
  `\n| body | bytes | JSON.parse ms | projection ms | time ratio | JSON.parse KB | projection KB | alloc ratio |${baseline ? ' baseline ms | baseline KB |' : ''}`,
);
console.log(`|---|---|---|---|---|---|---|---|${baseline ? '---|---|' : ''}`);
for (const [index, test] of CASES.entries()) {
  const bytes = bodies[index];
  const shape = daemonProjection(...test.projection);
  const answer = shape && gorillaAnswer(shape);
  const readers = { parse: () => JSON.parse(bytes.toString('utf8')) };
  if (answer) readers.projection = () => projectJson(bytes, answer);
  if (answer && baseline) {
    const old = new baseline.CompiledProjection({ result: shape, error: true });
    readers.baseline = () => baseline.projectJson(bytes, old);
  }
  const rounds = Object.fromEntries(Object.keys(readers).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) for (const [name, read] of Object.entries(readers)) rounds[name].push(measure(read));
  const [parseMs, parseBytes] = ['0', '1'].map((at) => median(rounds.parse.map((pair) => pair[at])));
  const cells = [test.name, bytes.length, ms(parseMs)];
  if (answer) {
    const [projectMs, projectBytes] = ['0', '1'].map((at) => median(rounds.projection.map((pair) => pair[at])));
    cells.push(ms(projectMs), ratio(projectMs, parseMs), kb(parseBytes), kb(projectBytes), ratio(projectBytes, parseBytes));
  } else cells.push('(not projected)', '', kb(parseBytes), '', '');
  if (readers.baseline) {
    const [oldMs, oldBytes] = ['0', '1'].map((at) => median(rounds.baseline.map((pair) => pair[at])));
    cells.push(ms(oldMs), kb(oldBytes));
  } else if (baseline) cells.push('', '');
  console.log(`| ${cells.join(' | ')} |`);
}
