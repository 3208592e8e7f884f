import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { startRecorder, type Recorder } from '../alerts/recorder.js';
import { settled } from '../alerts/daemon-processes.js';
import { onlyCollectors } from '../helpers/only-collectors.js';
import { freePort } from '../helpers/ports.js';
import { eventually, find, scrape, valueOf, type ParsedSample } from '../helpers/stack.js';
import { until } from '../helpers/until.js';

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

/** What a CPU-throttled container or a pegged core does to avaxmon, at its worst: nothing of it runs. */
async function stallProcess(child: ChildProcess, ms: number): Promise<void> {
  child.kill('SIGSTOP');
  await sleep(ms);
  child.kill('SIGCONT');
}

/** Passes requests on to `upstream`, counting those not yet answered. */
async function countingProxy(upstream: string): Promise<{ url: string; inFlight: () => number; server: Server }> {
  let inFlight = 0;
  const server = createServer((request, response) => {
    inFlight += 1;
    response.on('close', () => (inFlight -= 1));
    const onward = forward(`${upstream}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(response);
    });
    // The daemon gives up on a request (or is killed) while it is forwarded: nobody is left to answer.
    onward.on('error', () => response.destroy());
    request.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, inFlight: () => inFlight, server };
}

/** The health collector, and peers for the answer in flight during the stall. */
const HEALTH_AND_PEERS = onlyCollectors(['health', 'peers']);

const targetDownPages = (hook: Recorder): string[] =>
  hook.requests.flatMap((request) =>
    ((request.json as { alerts?: Array<{ status: string; labels: Record<string, string> }> }).alerts ?? [])
      .filter((alert) => alert.labels.alertname === 'AvaxmonTargetDown' && alert.status === 'firing')
      .map((alert) => alert.labels.target!),
  );

const failuresOf = (samples: ParsedSample[], target: string): number =>
  find(samples, 'avaxmon_rpc_requests_total', { target })
    .filter((sample) => ['timeout', 'network_error', 'reset', 'refused'].includes(sample.labels.outcome!))
    .reduce((sum, sample) => sum + sample.value, 0);

describe('a daemon stalled longer than its timeouts (SIGSTOP, then SIGCONT)', () => {
  let healthy: Simulator;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let hung: Simulator;
  let hook: Recorder;
  let daemon: ChildProcess;
  let url: string;

  beforeAll(async () => {
    [healthy, hung, hook] = await Promise.all([startSimulator(), startSimulator(), startRecorder()]);
    // The peers answer takes 500 ms: the daemon is stopped while one is in flight, and it arrives meanwhile.
    healthy.apply({ fault: { match: 'info.peers', kind: 'slow', delay: '500ms' } });
    proxy = await countingProxy(healthy.url);
    hung.apply({ fault: { match: '*', kind: 'slow', delay: '1h' } });
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-stall-'));
    const configFile = join(dir, 'config.yaml');
    writeFileSync(
      configFile,
      `global: { interval: 2s, timeout: 2s }
targets:
  - { name: node-a, url: "${proxy.url}", collectors: ${HEALTH_AND_PEERS} }
  - { name: node-hung, url: "${hung.url}", collectors: ${HEALTH_AND_PEERS} }
alerts:
  state_dir: ${join(dir, 'state')}
  group_wait: 0s
  group_interval: 0s
  group_by: ['...']
  rules:
    AvaxmonTargetDown: { for: 0s }
  receivers:
    - { name: hook, type: webhook, url: "${hook.url}/hook", match: { alertname: AvaxmonTargetDown } }
`,
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    daemon = spawn('node', [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
      stdio: 'ignore',
    });
  });
  afterAll(async () => {
    daemon.kill('SIGKILL');
    proxy.server.closeAllConnections();
    await Promise.all([healthy.close(), hung.close(), hook.close(), new Promise((resolve) => proxy.server.close(resolve))]);
  });

  it('blames no healthy node for its own stall, and still pages for the hung one', async () => {
    await until(() => targetDownPages(hook).includes('node-hung'), 60_000);
    await settled(url, { collector: 'health', runs: 1 });
    const before = await scrape(url);
    expect(valueOf(before, 'avaxmon_target_up', { target: 'node-a' })).toBe(1);
    expect(failuresOf(before, 'node-a')).toBe(0);

    await until(() => proxy.inFlight() > 0);
    await stallProcess(daemon, 4_000);
    await settled(url, { collector: 'health', runs: 2 });

    const after = await scrape(url);
    expect(failuresOf(after, 'node-a')).toBe(0);
    expect(valueOf(after, 'avaxmon_target_up', { target: 'node-a' })).toBe(1);
    expect(find(after, 'avaxmon_collector_abandoned_runs_total', { target: 'node-a' }).every((sample) => sample.value === 0)).toBe(true);
    expect(valueOf(after, 'avaxmon_target_up', { target: 'node-hung' })).toBe(0);
    // The hung node's calls still time out after the stall, within twice their timeout each.
    await eventually(
      () => scrape(url),
      (samples) => failuresOf(samples, 'node-hung') > failuresOf(before, 'node-hung'),
      60_000,
    );
    expect(new Set(targetDownPages(hook))).toEqual(new Set(['node-hung']));
  }, 180_000);
});
