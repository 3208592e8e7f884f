// Resident memory of the daemon with one target over time (default 5 minutes).
// Usage: npm run -s build && node bench/memory.mjs   (DURATION_S=300, INTERVAL=15s, PEERS=2000)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';

const DURATION_S = Number(process.env.DURATION_S ?? 300);
const INTERVAL = process.env.INTERVAL ?? '15s';
const PEERS = process.env.PEERS ?? '2000';
const main = new URL('../dist/main.js', import.meta.url).pathname;

const simPort = await freePort();
const daemonPort = await freePort();
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-memory-'));
const config = join(dir, 'config.yaml');
writeFileSync(config, `global: { interval: ${INTERVAL} }\ntargets: [{ name: validator-1, url: "http://127.0.0.1:${simPort}" }]\n`);

const sim = spawn(process.execPath, [main, 'simulate', `--port=${simPort}`, '--scenario=demo', `--peers=${PEERS}`], { stdio: 'ignore' });
await new Promise((resolve) => setTimeout(resolve, 1000));
const daemon = spawn(
  process.execPath,
  [main, `--config.file=${config}`, `--web.listen-address=127.0.0.1:${daemonPort}`, '--log.level=warn'],
  { env: daemonEnv, stdio: 'ignore' },
);

const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.pid}/status`, 'utf8'))[1]) / 1024;
const rows = [];
const started = Date.now();
const scrapeEvery = setInterval(
  () =>
    fetch(`http://127.0.0.1:${daemonPort}/metrics`, { headers: { 'accept-encoding': 'gzip' } })
      .then((r) => r.arrayBuffer())
      .catch(() => {}),
  15_000,
);
for (const at of [5, 30, 60, 120, 180, 240, 300].filter((s) => s <= DURATION_S)) {
  await new Promise((resolve) => setTimeout(resolve, started + at * 1000 - Date.now()));
  rows.push(`| ${at} s | ${rssMiB().toFixed(1)} MiB |`);
}
clearInterval(scrapeEvery);
daemon.kill('SIGTERM');
sim.kill('SIGTERM');
console.log(`daemon RSS, one target (${PEERS} peers, interval ${INTERVAL}), scraped every 15 s, node ${process.version}`);
console.log('| after | RSS |\n|---|---|');
console.log(rows.join('\n'));
