// Where a process's main thread spent its time, from a V8 CPU profile (`node --cpu-prof`): over the
// profile's last WINDOW_S seconds, the busy share of each function by itself (self), with what it
// called (inclusive), and by the project file whose code is deepest on the stack (self time of
// Node's and undici's code goes to the project file that called into it). Idle time is left out.
//
// Usage: NODES=1000 NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR" node bench/fleet-real.mjs, then
//   node bench/cpu-profile-summary.mjs DIR/<the daemon's profile, the largest>.cpuprofile
//   WINDOW_S (60: the fleet benchmark's window, which ends with the profile), TOP (30)
import { readFileSync } from 'node:fs';

const WINDOW_S = Number(process.env.WINDOW_S ?? 60);
const TOP = Number(process.env.TOP ?? 30);
const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const nameOf = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}`;
};
const projectFileOf = (id) => {
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const file = nodes.get(at).callFrame.url.match(/\/dist\/(.*)\.js$/);
    if (file) return file[1];
  }
  return '(Node and undici, no project code on the stack)';
};

const self = new Map();
const inclusive = new Map();
const byFile = new Map();
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
let sampledAt = profile.startTime;
const times = profile.timeDeltas.map((delta) => (sampledAt += delta));
const fromUs = times.at(-1) - WINDOW_S * 1e6;
let busyUs = 0;
for (let index = 0; index + 1 < profile.samples.length; index++) {
  if (times[index] < fromUs) continue;
  const node = nodes.get(profile.samples[index]);
  const { functionName } = node.callFrame;
  if (functionName === '(idle)') continue;
  const us = times[index + 1] - times[index];
  busyUs += us;
  add(self, nameOf(node), us);
  add(byFile, functionName.startsWith('(') ? functionName : projectFileOf(node.id), us);
  // A recursive function counts once per sample.
  const seen = new Set();
  for (let at = node.id; at !== undefined; at = parentOf.get(at)) seen.add(nameOf(nodes.get(at)));
  for (const name of seen) add(inclusive, name, us);
}

const print = (title, map) => {
  console.log(`\n| ${title} | share of the busy time |\n|---|---|`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`| ${name} | ${((100 * us) / busyUs).toFixed(1)} % |`);
};
console.log(`main thread busy ${(busyUs / 1e6).toFixed(1)} s of the profile's last ${WINDOW_S} s`);
print('function (self)', self);
print('function (inclusive)', inclusive);
print('project file deepest on the stack (self)', byFile);
