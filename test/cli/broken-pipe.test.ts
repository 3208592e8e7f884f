import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_BROKEN_PIPE } from '../../src/runtime/broken-pipe.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
/** Far above a normal run: only a hang reaches it. */
const HANG_MS = 120_000;
let sim: Simulator;
let configFile: string;

beforeAll(async () => {
  sim = await startSimulator();
  configFile = join(mkdtempSync(join(tmpdir(), 'avaxmon-pipe-')), 'config.yaml');
  // Ten names for the one simulated node: an exposition far larger than a pipe's 64 KiB buffer.
  const targets = Array.from({ length: 10 }, (_, index) => `  - { name: node-${index}, url: "${sim.url}" }`);
  // Timeouts a simulator in this busy process still meets: a timed-out run would make collect exit 1.
  writeFileSync(configFile, `global: { interval: 1m, timeout: 1m }\ntargets:\n${targets.join('\n')}\n`);
});
afterAll(() => sim.close());

/** Runs a shell pipeline without blocking this process, which serves the simulator; PIPESTATUS of avaxmon. */
function pipeline(command: string): Promise<{ status: number; stderr: string }> {
  const child = spawn('bash', ['-c', `${command}; exit \${PIPESTATUS[0]}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const hung = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(hung);
      resolve({ status: status ?? -1, stderr });
    }),
  );
}

describe('a reader that goes away', () => {
  it('collect with debug logs from failing collectors 2>&1 | head -5: no hang in the logger at exit', async () => {
    const dead = join(mkdtempSync(join(tmpdir(), 'avaxmon-pipe-')), 'dead.yaml');
    // Every collector fails and logs at debug: many log lines still unwritten when the reader goes.
    writeFileSync(
      dead,
      'targets: [{ name: dead, url: "http://127.0.0.1:9" }]\nmetrics_api: { url: "http://127.0.0.1:9", chains: [43114], metrics: [txCount] }\n',
    );
    const result = await pipeline(`node ${MAIN} collect --config.file=${dead} --log.level=debug 2>&1 | head -5 >/dev/null`);
    // 141 when a write met the closed pipe; 1 (collectors failed) when every line was already out.
    expect([EXIT_BROKEN_PIPE, 1], result.stderr).toContain(result.status);
  });

  it.each([
    ['collect 2>&1 | head -1', 'collect CONFIG 2>&1 | head -1 >/dev/null'],
    ['collect | head -1 (stdout only)', 'collect CONFIG | head -1 >/dev/null'],
    ['the daemon 2>&1 | head -1', 'CONFIG --web.listen-address=127.0.0.1:0 2>&1 | head -1 >/dev/null'],
  ])('%s: exits at once as a closed pipe should, without a stack trace', async (_, command) => {
    const result = await pipeline(`node ${MAIN} ${command.replace('CONFIG', `--config.file=${configFile}`)}`);
    // 141 once a write meets the closed pipe; 0 when the command had already handed all its output over.
    expect([EXIT_BROKEN_PIPE, 0], result.stderr).toContain(result.status);
    expect(result.stderr).not.toContain('fatal');
  });
});
