// What the alert sweep costs over a healthy fleet: one simulated Mainnet-shaped node (1,800 peers,
// 1,500 validators) is collected once, its samples given to TARGETS targets, and the fleet tick
// (a tenth of the fleet swept each second, fleet-wide rules every fifth) run for TICKS seconds on a
// manual clock, in turn with the full sweep (every rule of every target) and the incremental one
// (settled rules left out). Usage:
//   npm run -s build && node bench/alert-sweep.mjs   (TARGETS=1000 TICKS=100 ROUNDS=3)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { EvaluationSchedule } from '../dist/alerts/evaluation-schedule.js';
import { ALERT_READ_FAMILIES } from '../dist/alerts/evaluation/read-families.js';
import { HttpClient } from '../dist/clients/http.js';
import { nodeSliceRun, runSlice } from '../dist/collectors/run-collector.js';
import { parseConfig } from '../dist/config/load.js';
import { TargetRuntimes } from '../dist/daemon/target-runtimes.js';
import { allMetrics } from '../dist/metrics/catalogue/index.js';
import { SelfMetrics } from '../dist/metrics/self-metrics.js';
import { MetricsSnapshot } from '../dist/metrics/snapshot.js';
import { inTurn } from '../dist/schedule/loop-turns.js';
import { freePort } from './ports.mjs';

const TARGETS = Number(process.env.TARGETS ?? 1000);
const TICKS = Number(process.env.TICKS ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const log = pino({ level: 'silent' });

/** Every sample of one simulated node, by one run of each of its collectors. */
async function nodeSamples() {
  const port = await freePort();
  const main = new URL('../dist/main.js', import.meta.url).pathname;
  const sim = spawn(
    process.execPath,
    [main, 'simulate', '--nodes', '1', '--port', String(port), '--validators', '1500', '--peers', '1800'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise((resolve) => sim.stdout.on('data', (chunk) => /listening/.test(String(chunk)) && resolve()));
  const config = parseConfig(`targets:\n  - { name: node-0, url: "http://127.0.0.1:${port}" }\n`);
  const http = new HttpClient({ maxResponseBytes: config.global.max_response_bytes });
  const self = new SelfMetrics({ version: 'bench', revision: 'bench' });
  const snapshot = new MetricsSnapshot(allMetrics);
  const runs = new TargetRuntimes(http, self).build(config).map(nodeSliceRun);
  await Promise.all(runs.map((run) => runSlice(run, { snapshot, self, log }, new AbortController().signal)));
  await http.close();
  sim.kill();
  return [...snapshot.samplesOf('node-0'), ...self.statusSamples('node-0')];
}

/** A clock whose timers fire only when `tick` moves it a second on. */
function manualClock() {
  let nowMs = Date.now();
  let timers = [];
  const clock = {
    now: () => nowMs,
    setTimeout(callback, delayMs) {
      const timer = { dueMs: nowMs + delayMs, callback, unref: () => timer };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => (timers = timers.filter((each) => each !== timer)),
  };
  /** Resolves once the tick's work is done: the sweep runs its pieces in turns of the loop (inTurn), first come first run. */
  const tick = () => {
    nowMs += 1000;
    const due = timers.filter((timer) => timer.dueMs <= nowMs).sort((a, b) => a.dueMs - b.dueMs);
    timers = timers.filter((timer) => timer.dueMs > nowMs);
    for (const timer of due) timer.callback();
    return inTurn(() => undefined);
  };
  return { clock, tick };
}

async function msPerTick(samples, sweep) {
  const { clock, tick } = manualClock();
  const snapshot = new MetricsSnapshot(allMetrics, { keepSamplesOf: ALERT_READ_FAMILIES, clock });
  for (let index = 0; index < TARGETS; index++) {
    const target = `node-${index}`;
    snapshot.setSlice(
      `${target}/all`,
      samples.map((sample) => ({ ...sample, labels: { ...sample.labels, target } })),
    );
  }
  const alerts = new EvaluationSchedule(log, snapshot, { clock, sweep });
  await alerts.configure(
    parseConfig(`alerts:
  state_dir: ${mkdtempSync(join(tmpdir(), 'avaxmon-alert-sweep-'))}
  receivers: [{ name: hook, type: webhook, url: "http://127.0.0.1:9/hook" }]
`).alerts,
  );
  alerts.startEvaluating();
  // Two sweeps first: the incremental one settles its rules in the first.
  for (let second = 0; second < 20; second++) await tick();
  const started = performance.now();
  for (let second = 0; second < TICKS; second++) await tick();
  const ms = (performance.now() - started) / TICKS;
  const open = alerts.current.activeAlerts().length;
  await alerts.stop();
  return { ms, open };
}

const samples = await nodeSamples();
console.log(`alert sweep: ${TARGETS} targets of ${samples.length} samples each, ${TICKS} fleet ticks per round; node ${process.version}`);
console.log('\n| round | full sweep, ms per tick | incremental, ms per tick | ratio | open alerts |\n|---|---|---|---|---|');
for (let round = 1; round <= ROUNDS; round++) {
  const full = await msPerTick(samples, 'full');
  const incremental = await msPerTick(samples, 'incremental');
  console.log(
    `| ${round} | ${full.ms.toFixed(1)} | ${incremental.ms.toFixed(1)} | ${(incremental.ms / full.ms).toFixed(2)} | ${full.open} / ${incremental.open} |`,
  );
}
process.exit(0);
