// The field-only reader against JSON.parse, on the bodies the daemon reads that way: one simulated
// Mainnet-sized node (1,800 peers, 1,500 validators) asked once, as the collectors ask it, then in
// this process, in turns, the time and V8 allocation of
//   - JSON.parse of the body's text (decoding included: what the floor and the plain call pay),
//   - projectJson with the projection the daemon uses (read from the built collector's source, so
//     the figure is for what the daemon asks, not a copy),
//   - and, with BASELINE=<path of another build's dist/clients/json-projection.js>, that reader too.
// Time is per read, in the best of ROUNDS rounds of every reader of every body in turns;
// allocation is what V8's heap grew by plus what collections freed (v8.GCProfiler), per read.
// Light: about 20 s, one core.
//
// Usage: npm run -s build && node bench/json-projection.mjs
//   ROUNDS (25), BASELINE (unset)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { freePort } from './ports.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 25);
const dist = new URL('../dist/', import.meta.url);
const { projectJson, NOT_JSON, columnsOf } = await import(new URL('clients/json-projection.js', dist).href);
const { gorillaAnswer } = await import(new URL('clients/jsonrpc.js', dist).href);
const baseline = process.env.BASELINE ? await import(process.env.BASELINE) : undefined;

/** The argument of `const NAME = gorillaAnswer(...)` in a built collector: the projection the daemon uses. */
function daemonProjection(file, name) {
  const source = readFileSync(new URL(file, dist), 'utf8');
  const found = source.match(new RegExp(`const ${name} = gorillaAnswer\\(([\\s\\S]*?)\\);\n`));
  if (!found) return undefined;
  return new Function('columnsOf', `return (${found[1]});`)(columnsOf);
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

/** V8 heap bytes allocated per read over `reads` reads: what the heap grew by plus what collections freed. */
function allocated(read, reads) {
  const profiler = new GCProfiler();
  const usedBefore = getHeapStatistics().used_heap_size;
  profiler.start();
  let sink;
  for (let index = 0; index < reads; index++) sink = read();
  const usedAfter = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let freed = 0;
  for (const gc of statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  if (sink === NOT_JSON) throw new Error('a body the reader refused');
  return (usedAfter - usedBefore + freed) / reads;
}

const ms = (value) => value.toFixed(3);
const kb = (value) => (value / 1024).toFixed(0);
const ratio = (value, floor) => (value / floor).toFixed(2);

console.log(`json-projection bench: node ${process.version}, ${cpus()[0].model} x${cpus().length}, best of ${ROUNDS} interleaved rounds`);
console.log(
  `\n| body | bytes | JSON.parse ms | projection ms | time ratio | JSON.parse KB | projection KB | alloc ratio |${baseline ? ' baseline ms | baseline KB |' : ''}`,
);
console.log(`|---|---|---|---|---|---|---|---|${baseline ? '---|---|' : ''}`);
const cases = CASES.map((test, index) => {
  const bytes = bodies[index];
  const shape = daemonProjection(...test.projection);
  const answer = shape && gorillaAnswer(shape);
  const readers = { parse: () => JSON.parse(bytes.toString('utf8')) };
  if (answer) readers.projection = () => projectJson(bytes, answer);
  if (answer && baseline) {
    const old = new baseline.CompiledProjection({ result: shape, error: true });
    readers.baseline = () => baseline.projectJson(bytes, old);
  }
  return { test, bytes, answer, readers, best: {} };
});
// Every reader of every body first, then rounds over all of them: the readers' code is as
// polymorphic as in the daemon, which reads these bodies in turns. A round reads a body about 6 MB
// worth of times, so that collections of what the reads leave count too; on a shared machine the
// best round is the figure least disturbed by other work.
for (let warm = 0; warm < 20; warm++) for (const { readers } of cases) for (const read of Object.values(readers)) read();
for (let round = 0; round < ROUNDS; round++)
  for (const { readers, best, bytes } of cases)
    for (const [name, read] of Object.entries(readers)) {
      const reads = Math.ceil(6e6 / bytes.length);
      const start = performance.now();
      for (let index = 0; index < reads; index++) read();
      best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, (performance.now() - start) / reads);
    }
for (const { readers, bytes } of cases)
  for (const [name, read] of Object.entries(readers))
    readers[name] = { read, bytes: allocated(read, Math.max(5, Math.round(4e6 / bytes.length))) };
for (const { test, bytes, answer, readers, best } of cases) {
  const cells = [test.name, bytes.length, ms(best.parse)];
  if (answer) {
    cells.push(ms(best.projection), ratio(best.projection, best.parse));
    cells.push(kb(readers.parse.bytes), kb(readers.projection.bytes), ratio(readers.projection.bytes, readers.parse.bytes));
  } else cells.push('(not projected)', '', kb(readers.parse.bytes), '', '');
  if (readers.baseline) cells.push(ms(best.baseline), kb(readers.baseline.bytes));
  else if (baseline) cells.push('', '');
  console.log(`| ${cells.join(' | ')} |`);
}
