// What a churn of alerts that queue no notification costs while every target has a firing alert:
// a fleet short of CPU, its collectors timing out and recovering, opens and closes pending alerts
// run after run, and each change is alert state to keep across a restart. Usage:
//   npm run -s build && node bench/alert-state-writes.mjs   (TARGETS=1000 CHANGES=3000)
// Builds the alert plane in-process on a state_dir in the system's temporary directory, fires
// AvalancheNodeUnhealthy on every target (delivered to a loopback receiver), then makes CHANGES
// evaluations of one target each, every one opening or closing a pending AvalancheHealthCheckFailing
// (for: 10m), yielding to the event loop between them as a daemon's runs do. Prints the wall and
// CPU time per change, the longest evaluation (the event loop blocked) and the bytes of alerts.json.
import { mkdtempSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { AlertPlane } from '../dist/alerts/alert-plane.js';
import { parseConfig } from '../dist/config/load.js';

const TARGETS = Number(process.env.TARGETS ?? 1000);
const CHANGES = Number(process.env.CHANGES ?? 3000);

const receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(200).end()));
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-alert-state-writes-'));
const config = parseConfig(`alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  group_interval: 0s
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { for: 10m }
  receivers: [{ name: hook, type: webhook, url: "http://127.0.0.1:${receiver.address().port}/hook" }]
`).alerts;
const alerting = new AlertPlane(config, pino({ level: 'silent' }));

const samplesOf = (target, checkPassing) => [
  { name: 'avaxmon_target_up', labels: { target }, value: 1 },
  { name: 'avaxmon_node_healthy', labels: { target }, value: 0 },
  { name: 'avaxmon_health_check_passing', labels: { target, check: 'network' }, value: 0 },
  { name: 'avaxmon_health_check_passing', labels: { target, check: 'bootstrapped' }, value: checkPassing },
];
const target = (index) => `node-${index % TARGETS}`;
const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));

for (let index = 0; index < TARGETS; index++) alerting.evaluateTarget({ target: target(index), samples: samplesOf(target(index), 1) });
while (alerting.outbox.depth > 0) await new Promise((resolve) => setTimeout(resolve, 50));

const cpuBefore = process.cpuUsage();
const started = performance.now();
let longestMs = 0;
for (let change = 0; change < CHANGES; change++) {
  const opening = Math.floor(change / TARGETS) % 2 === 0;
  const evaluationStarted = performance.now();
  alerting.evaluateTarget({ target: target(change), samples: samplesOf(target(change), opening ? 0 : 1) });
  longestMs = Math.max(longestMs, performance.now() - evaluationStarted);
  await yieldToLoop();
}
await alerting.stop(0);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const cpuMs = (cpu.user + cpu.system) / 1000;
const open = alerting.activeAlerts().length;
receiver.close();

console.log(`alert state writes: ${TARGETS} targets with a firing alert, ${CHANGES} changes that queue nothing; node ${process.version}`);
console.log('\n| per change, wall | per change, CPU | longest evaluation | alerts.json | open alerts at the end |\n|---|---|---|---|---|');
console.log(
  `| ${((wallMs * 1000) / CHANGES).toFixed(0)} µs | ${((cpuMs * 1000) / CHANGES).toFixed(0)} µs | ${longestMs.toFixed(1)} ms | ${(statSync(join(stateDir, 'alerts.json')).size / 1024).toFixed(0)} KB | ${open} |`,
);
process.exit(0);
