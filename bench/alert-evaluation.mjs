// What one run's alert evaluation costs while alerts of other targets are open: a run re-evaluates
// its own target, so the cost must not grow with the fleet's open alerts. Usage:
//   npm run -s build && node bench/alert-evaluation.mjs   (TARGETS=1000 RUNS=100000)
// Prints, in one run, the cost per evaluation with no alert open and with one firing alert on every
// target (AvalancheNodeUnhealthy, for: 0s), and their ratio (target: under 3x at 1,000 targets).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { AlertPlane } from '../dist/alerts/alert-plane.js';
import { parseConfig } from '../dist/config/load.js';

const TARGETS = Number(process.env.TARGETS ?? 1000);
const RUNS = Number(process.env.RUNS ?? 100000);

const samplesOf = (target, healthy) => [
  { name: 'avaxmon_node_healthy', labels: { target }, value: healthy },
  { name: 'avaxmon_target_up', labels: { target }, value: 1 },
];

async function microsPerEvaluation(healthy) {
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-alert-evaluation-'));
  const config = parseConfig(`alerts:
  state_dir: ${stateDir}
  rules: { AvalancheNodeUnhealthy: { for: 0s } }
  receivers: [{ name: hook, type: webhook, url: "http://127.0.0.1:9/hook" }]
`).alerts;
  const alerting = new AlertPlane(config, pino({ level: 'silent' }));
  for (let index = 0; index < TARGETS; index++)
    alerting.evaluateTarget({ target: `node-${index}`, samples: samplesOf(`node-${index}`, healthy) });
  const open = alerting.activeAlerts().length;
  const started = performance.now();
  for (let run = 0; run < RUNS; run++) {
    const target = `node-${run % TARGETS}`;
    alerting.evaluateTarget({ target, samples: samplesOf(target, healthy) });
  }
  const micros = ((performance.now() - started) * 1000) / RUNS;
  await alerting.stop(0);
  return { open, micros };
}

const quiet = await microsPerEvaluation(1);
const firing = await microsPerEvaluation(0);
console.log(`${TARGETS} targets, ${RUNS} evaluations each, one target per evaluation`);
console.log(
  `| open alerts | µs per evaluation |\n|---|---|\n| ${quiet.open} | ${quiet.micros.toFixed(1)} |\n| ${firing.open} | ${firing.micros.toFixed(1)} |`,
);
console.log(`ratio: ${(firing.micros / quiet.micros).toFixed(2)}x`);
process.exit(0);
