// Time from spawning `node dist/main.js` to its first 200 on /-/ready, with one healthy target
// (the simulator). Usage: npm run -s build && node bench/startup.mjs   (RUNS=10)
// Target: median <= 1 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../dist/simulator/server.js';
import { freePort } from './ports.mjs';

const RUNS = Number(process.env.RUNS ?? 10);
const main = new URL('../dist/main.js', import.meta.url).pathname;

const sim = await startSimulator();
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-startup-'));
const configFile = join(dir, 'config.yaml');
writeFileSync(configFile, `global: { interval: 15s, timeout: 2s }\ntargets: [{ name: node, url: "${sim.url}" }]\n`);

async function readyAfterMs(port) {
  const started = performance.now();
  const daemon = spawn(process.execPath, [main, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/-/ready`).then((response) => response.status, () => 0);
      if (status === 200) return performance.now() - started;
      if (performance.now() - started > 30_000) throw new Error('not ready within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    daemon.kill('SIGTERM');
    await new Promise((resolve) => daemon.once('exit', resolve));
  }
}

const samples = [];
for (let run = 0; run < RUNS; run++) samples.push(await readyAfterMs(await freePort()));
samples.sort((a, b) => a - b);
const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
console.log(`startup to /-/ready (one healthy target, ${RUNS} runs): median ${at(0.5).toFixed(0)} ms, min ${samples[0].toFixed(0)} ms, max ${samples.at(-1).toFixed(0)} ms`);
await sim.close();
