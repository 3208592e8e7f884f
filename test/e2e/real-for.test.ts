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
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
/** The daemon's clocks, wall and monotonic, run this much faster: every rule keeps its real `for`. */
const SPEED = 30;

interface Notified {
  readonly status: string;
  readonly labels: Record<string, string>;
}

const V115 = 'avalanchego/1.15.1';
const WELL_SEEN = { set_version: V115, network_view: { connected: [{ stake: 97, observed: 99 }] } };

/** Issue 43's edges, with the default rules (their real `for`), in a daemon process whose time runs 30 times faster. */
const NODES: Record<string, ReadonlyArray<Record<string, unknown>>> = {
  restart: [{ ...WELL_SEEN, fail_check: { check: 'bootstrapped', error: 'subnets not bootstrapped' } }, { chain_bootstrapping: 'C' }],
  partition: [
    { set_version: V115, network_view: { connected: [{ stake: 4, observed: 99 }] } },
    ...['P', 'X', 'C'].map((chain) => ({
      set_connected_stake: { chain, percent: 4 },
      fail_check: {
        check: chain,
        error: 'networking: not connected to enough stake: connected to 4.000000%; required at least 80.000000%',
      },
    })),
  ],
  upgrade: [
    {
      set_version: V115,
      upgrade_ahead: { from_version: 'avalanchego/1.16.0', days: 0.5 },
      network_view: { connected: [{ stake: 90, observed: 99, version: 'avalanchego/1.16.0' }] },
    },
  ],
};

describe.runIf(requireTool(LIBFAKETIME, 'faketime'))("issue 43's edges with every rule's real `for` (the daemon's time 30x)", () => {
  const sims = new Map<string, Simulator>();
  let hook: Recorder;
  let daemon: ChildProcess;
  let url: string;
  /** Whether the daemon holds this rule's alert firing (inhibited or not), from avaxmon_alerts. */
  const firing = async (rule: string) =>
    valueOf(await scrape(url).catch(() => []), 'avaxmon_alerts', { rule, state: 'firing' }) !== undefined;
  const notified = (): Notified[] => hook.requests.flatMap((request) => (request.json as { alerts?: Notified[] }).alerts ?? []);
  const seen = (target: string, alertname: string, severity?: string) =>
    notified().some(
      (alert) =>
        alert.status === 'firing' &&
        alert.labels.target === target &&
        alert.labels.alertname === alertname &&
        (severity === undefined || alert.labels.severity === severity),
    );

  beforeAll(async () => {
    hook = await startRecorder();
    for (const [name, steps] of Object.entries(NODES)) {
      const sim = await startSimulator({ validators: 100 });
      for (const step of steps) sim.apply(step);
      sims.set(name, sim);
    }
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-real-for-'));
    const configFile = join(dir, 'config.yaml');
    // One run a minute of the daemon's time (2 s of ours), each request 45 s of it: a loaded machine's answers fit.
    writeFileSync(
      configFile,
      `global: { interval: 1m, timeout: 45s }
targets:
  - { name: restart, url: "${sims.get('restart')!.url}" }
  - { name: partition, url: "${sims.get('partition')!.url}", validators: { node_ids: [self], network_wide: true } }
  - { name: upgrade, url: "${sims.get('upgrade')!.url}" }
alerts:
  state_dir: ${join(dir, 'state')}
  receivers:
    - { name: hook, type: webhook, url: "${hook.url}/hook" }
`,
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    daemon = spawn(process.execPath, [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'], {
      stdio: 'ignore',
      env: { ...process.env, LD_PRELOAD: LIBFAKETIME, FAKETIME: `+0 x${SPEED}` },
    });
  }, 60_000);
  afterAll(async () => {
    daemon?.kill('SIGKILL');
    await Promise.all([...[...sims.values()].map((sim) => sim.close()), hook?.close()]);
  });

  it('a restart: a warning first, critical once the bootstrap outlasts 30 minutes, beside AvalancheNodeNotBootstrapped', async () => {
    await until(() => seen('restart', 'AvalancheNodeUnhealthy', 'warning'), 60_000);
    expect(seen('restart', 'AvalancheNodeUnhealthy', 'critical')).toBe(false);
    await until(() => seen('restart', 'AvalancheNodeUnhealthy', 'critical') && seen('restart', 'AvalancheNodeNotBootstrapped'), 150_000);
  }, 240_000);

  it('a partition pages once: AvalancheNodeUnhealthy, never AvalancheStakeConnectedLow or AvalanchePeersLow', async () => {
    await until(() => seen('partition', 'AvalancheNodeUnhealthy', 'critical'), 60_000);
    // Firing after their 5-minute `for`, and inhibited by the page.
    await until(() => firing('AvalancheStakeConnectedLow'), 60_000);
    const names = new Set(
      notified()
        .filter((alert) => alert.labels.target === 'partition')
        .map((alert) => alert.labels.alertname),
    );
    expect(names.has('AvalancheStakeConnectedLow')).toBe(false);
    expect(names.has('AvalanchePeersLow')).toBe(false);
  }, 120_000);

  it('an upgrade the node does not know, 12 hours away, pages; the version it lags by is its symptom', async () => {
    await until(() => seen('upgrade', 'AvalancheUpgradeScheduled', 'critical'), 60_000);
    // AvalancheNodeVersionBehind fires after its hour (2 minutes of ours), inhibited by the upgrade's page.
    await until(() => firing('AvalancheNodeVersionBehind'), 150_000);
    const names = new Set(
      notified()
        .filter((alert) => alert.labels.target === 'upgrade')
        .map((alert) => alert.labels.alertname),
    );
    expect(names.has('AvalancheNodeVersionBehind')).toBe(false);
  }, 240_000);
});
