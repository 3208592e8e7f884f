import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { startRecorder, type Recorder } from '../alerts/recorder.js';
import { freePort } from '../helpers/ports.js';
import { scrape, valueOf } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';
import { until } from '../helpers/until.js';

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
/** Debian's libfaketime (package faketime): fakes the wall clock, here leaving the monotonic clock alone. */
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
const FOR_MS = 10_000;

const firstPageAt = (hook: Recorder, target: string): number | undefined =>
  hook.requests.find((request) =>
    ((request.json as { alerts?: Array<{ status: string; labels: Record<string, string> }> }).alerts ?? []).some(
      (alert) => alert.status === 'firing' && alert.labels.alertname === 'AvalancheNodeUnhealthy' && alert.labels.target === target,
    ),
  )?.atMs;

describe.runIf(requireTool(LIBFAKETIME, 'faketime'))('a step of the wall clock (libfaketime, monotonic clock left alone)', () => {
  const sims: Record<string, Simulator> = {};
  let hook: Recorder;
  let daemon: ChildProcess;
  let url: string;
  let offsetFile: string;

  beforeAll(async () => {
    [sims.back, sims.forward, hook] = await Promise.all([startSimulator(), startSimulator(), startRecorder()]);
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-wall-step-'));
    offsetFile = join(dir, 'faketime');
    writeFileSync(offsetFile, '+0\n');
    const configFile = join(dir, 'config.yaml');
    writeFileSync(
      configFile,
      `global: { interval: 1s, timeout: 900ms }
targets:
  - { name: node-back, url: "${sims.back.url}" }
  - { name: node-forward, url: "${sims.forward.url}" }
alerts:
  state_dir: ${join(dir, 'state')}
  group_wait: 0s
  group_interval: 0s
  group_by: ['...']
  rules:
    AvalancheNodeUnhealthy: { for: ${FOR_MS / 1000}s }
  receivers:
    - { name: hook, type: webhook, url: "${hook.url}/hook", match: { alertname: AvalancheNodeUnhealthy } }
`,
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    daemon = spawn(process.execPath, [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
      stdio: 'ignore',
      env: {
        ...process.env,
        LD_PRELOAD: LIBFAKETIME,
        FAKETIME_TIMESTAMP_FILE: offsetFile,
        FAKETIME_CACHE_DURATION: '1',
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
      },
    });
    await until(async () => (await scrape(url).catch(() => [])).some((sample) => sample.name === 'avaxmon_node_healthy'), 30_000);
  }, 60_000);
  afterAll(async () => {
    daemon?.kill('SIGKILL');
    await Promise.all([...Object.values(sims).map((sim) => sim.close()), hook?.close()]);
  });

  /** Turns the node unhealthy, steps the daemon's wall clock `offset` 3 s later, and returns when it paged (ms after). */
  async function unhealthyThenStep(target: 'back' | 'forward', offset: string): Promise<number> {
    const unhealthyAt = Date.now();
    sims[target].apply({ set_disk: { percent: 8 } });
    await until(async () => valueOf(await scrape(url), 'avaxmon_node_healthy', { target: `node-${target}` }) === 0, 10_000);
    await until(() => Date.now() - unhealthyAt > 3_000);
    writeFileSync(offsetFile, `${offset}\n`);
    await until(() => firstPageAt(hook, `node-${target}`) !== undefined, 60_000);
    return firstPageAt(hook, `node-${target}`)! - unhealthyAt;
  }

  it('a step back of 2 hours while pending does not delay the page', async () => {
    const pagedAfterMs = await unhealthyThenStep('back', '-2h');
    expect(pagedAfterMs).toBeGreaterThanOrEqual(FOR_MS);
    expect(pagedAfterMs).toBeLessThan(FOR_MS + 15_000);
  }, 90_000);

  it('a step forward of 4 hours while pending does not fire it before its `for`', async () => {
    const pagedAfterMs = await unhealthyThenStep('forward', '+2h');
    expect(pagedAfterMs).toBeGreaterThanOrEqual(FOR_MS);
    expect(pagedAfterMs).toBeLessThan(FOR_MS + 15_000);
  }, 90_000);
});
