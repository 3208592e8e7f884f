// Time from spawning `node dist/main.js` to its first 200 on /-/ready, with one healthy target
// (the simulator). Usage: npm run -s build && node bench/startup.mjs   (RUNS=10)
// Target: median <= 1 s. Also prints the daemon's own CPU time up to readiness (from /proc), which
// does not depend on what else the machine runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../dist/simulator/server.js';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';

const RUNS = Number(process.env.RUNS ?? 10);
const main = new URL('../dist/main.js', import.meta.url).pathname;

const sim = await startSimulator();
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-startup-'));
const configFile = join(dir, 'config.yaml');
writeFileSync(configFile, `global: { interval: 15s, timeout: 2s }\ntargets: [{ name: node, url: "${sim.url}" }]\n`);

async function readyAfter(port) {
  const started = performance.now();
  const daemon = spawn(
    process.execPath,
    [main, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    {
      env: daemonEnv,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/-/ready`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return { wallMs: performance.now() - started, cpuMs: cpuMsOf(daemon.pid) };
      if (performance.now() - started > 30_000) throw new Error('not ready within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    daemon.kill('SIGTERM');
    await new Promise((resolve) => daemon.once('exit', resolve));
  }
}

/** User + system CPU of a process so far, from /proc/PID/stat (clock ticks of 10 ms). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const runs = [];
for (let run = 0; run < RUNS; run++) runs.push(await readyAfter(await freePort()));
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms`;
};
console.log(`node ${process.version}, startup to /-/ready with one healthy target, ${RUNS} runs`);
console.log(`  wall time:  ${summary(runs.map((run) => run.wallMs))}`);
console.log(`  daemon CPU: ${summary(runs.map((run) => run.cpuMs))}`);
await sim.close();
