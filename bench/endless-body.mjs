// Resident memory under an endless-body attack: TARGETS nodes whose every answer is an endless
// chunked body, for ATTACK_S seconds, then plain 503s. Run three times: with the shipped memory
// settings (src/runtime/process-settings.ts) and the default response memory budget (global.max_response_memory_bytes,
// 128 MiB), with the budget effectively off, and without the memory settings.
// Usage: npm run -s build && node bench/endless-body.mjs   (TARGETS=20, ATTACK_S=60, AFTER_S=30)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.mjs';
import { daemonEnv } from './daemon-env.mjs';

const TARGETS = Number(process.env.TARGETS ?? 20);
const ATTACK_S = Number(process.env.ATTACK_S ?? 60);
const AFTER_S = Number(process.env.AFTER_S ?? 30);
const main = new URL('../dist/main.js', import.meta.url).pathname;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let hostile = false;
const chunk = Buffer.alloc(64 * 1024, '7');
const upstream = createServer((_request, response) => {
  if (!hostile) return void response.writeHead(503, { 'content-type': 'text/plain' }).end('not ready\n');
  response.writeHead(200, { 'content-type': 'application/json' });
  const pump = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on('drain', pump);
  pump();
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

async function run(label, memoryBudgetBytes, env = daemonEnv) {
  hostile = false;
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-endless-'));
  const config = join(dir, 'config.yaml');
  const targets = Array.from({ length: TARGETS }, (_, index) => ({ name: `node-${index}`, url: upstreamUrl }));
  writeFileSync(
    config,
    JSON.stringify({
      global: { interval: '5s', timeout: '4s', ...(memoryBudgetBytes ? { max_response_memory_bytes: memoryBudgetBytes } : {}) },
      targets,
    }),
  );
  const port = await freePort();
  const daemon = spawn(process.execPath, [main, `--config.file=${config}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'], {
    env,
    stdio: 'ignore',
  });
  const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.pid}/status`, 'utf8'))[1]) / 1024;
  await sleep(15_000);
  const baseline = rssMiB();
  hostile = true;
  let peak = baseline;
  for (let at = 0; at < ATTACK_S; at += 1) {
    await sleep(1000);
    peak = Math.max(peak, rssMiB());
  }
  hostile = false;
  await sleep(AFTER_S * 1000);
  const after = rssMiB();
  const metrics = await fetch(`http://127.0.0.1:${port}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  const alive = metrics.includes('avaxmon_build_info');
  const mib = (name) => (Number(new RegExp(`^${name} (\\S+)`, 'm').exec(metrics)?.[1] ?? NaN) / 1024 ** 2).toFixed(0);
  await new Promise((resolve) => {
    daemon.once('exit', resolve);
    daemon.kill('SIGTERM');
  });
  return `| ${label} | ${baseline.toFixed(0)} | ${peak.toFixed(0)} | ${after.toFixed(0)} | ${mib('nodejs_heap_size_total_bytes')} | ${mib('nodejs_external_memory_bytes')} | ${alive ? 'yes' : 'no'} |`;
}

const rows = [
  await run('process settings, budget 128 MiB (default)', undefined),
  await run('process settings, budget off (64 GiB)', 64 * 1024 ** 3),
  await run('no process settings, budget 128 MiB (default)', undefined, { ...process.env, AVAXMON_PROCESS_SETTINGS: 'off' }),
];
upstream.close();
console.log(
  `${TARGETS} targets, every answer an endless chunked body for ${ATTACK_S} s (interval 5s, timeout 4s, max_response_bytes 32 MiB), node ${process.version}\n`,
);
console.log(
  '| settings | RSS before MiB | RSS peak MiB | RSS ' +
    AFTER_S +
    ' s after MiB | V8 heap after MiB | external after MiB | /metrics served |\n|---|---|---|---|---|---|---|',
);
console.log(rows.join('\n'));
