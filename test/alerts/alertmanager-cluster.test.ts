import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/server.js';
import { startCluster } from '../helpers/alertmanager-cluster.js';
import { ALERTMANAGER, freePort } from '../helpers/real-systems.js';
import { requireTool } from '../helpers/tools.js';
import { startRecorder } from './recorder.js';

/**
 * docs/scaling.md's high availability, end to end: two avaxmon replicas with the same config send to
 * a two-member Alertmanager cluster (gossiping its notification log on loopback), and the operator's
 * webhook gets one notification per change of the group. Mid-incident, one replica and one
 * Alertmanager are killed with -9: the resolve still arrives, once. A silence made in the cluster
 * holds through the kill -9 of the member it was made on.
 */

const hasAlertmanager = requireTool(ALERTMANAGER, 'prometheus-alertmanager');
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface AmWebhook {
  status: string;
  alerts: Array<{ status: string; labels: Record<string, string> }>;
}

/** The cluster's alertmanager.yml: everything to the operator's webhook, grouped by alertname. */
const clusterConfig = (hookUrl: string) => `route:
  receiver: hook
  group_by: [alertname]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs: [{ url: ${hookUrl}/hook }]
`;

/** An avaxmon process watching the simulated node, sending to both Alertmanagers; its own state_dir. */
async function replica(targetUrl: string, alertmanagers: readonly string[]): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-cluster-'));
  const configFile = join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `global: { interval: 1s, timeout: 800ms }
targets: [{ name: node-a, url: "${targetUrl}" }]
alerts:
  state_dir: ${join(dir, 'data')}
  rules:
    AvalancheNodeUnhealthy: { for: 1s }
    AvalancheHealthCheckFailing: { enabled: false }
    AvalancheSubnetUnhealthy: { enabled: false }
    AvalancheChainStalled: { enabled: false }
  receivers:
    - name: am
      type: alertmanager
      urls: [${alertmanagers.join(', ')}]
      repeat_interval: 2s
      match: { alertname: AvalancheNodeUnhealthy }
`,
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    {
      stdio: 'ignore',
    },
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
  await until(async () => (await fetch(`http://127.0.0.1:${port}/-/ready`).catch(() => undefined))?.status === 200);
  return child;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A webhook recorder, the node simulator and a two-member Alertmanager cluster that sees itself formed. */
async function formedCluster() {
  const hook = await startRecorder();
  cleanups.push(() => hook.close());
  const sim = await startSimulator();
  cleanups.push(() => sim.close());
  const alertmanagers = await startCluster(() => clusterConfig(hook.url));
  for (const member of alertmanagers) cleanups.push(() => member.stop());
  return { hook, sim, alertmanagers, urls: alertmanagers.map((member) => member.url) };
}

describe.skipIf(!hasAlertmanager)('two replicas behind a two-member Alertmanager cluster', () => {
  it('one notification per change; kill -9 of a replica and an Alertmanager mid-incident loses nothing and doubles nothing', async () => {
    const { hook, sim, alertmanagers, urls } = await formedCluster();
    const replicas = [await replica(sim.url, urls), await replica(sim.url, urls)];

    sim.apply({ fail_check: 'network' });
    await until(() => hook.requests.length >= 1);
    // Both members have the alert from both replicas; a second notification would come within a peer timeout (3s).
    const webhooks = () => hook.requests.map((request) => request.json as AmWebhook);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(webhooks().map((body) => body.status)).toEqual(['firing']);

    // Mid-incident: one replica and one Alertmanager die without a word.
    replicas[0].kill('SIGKILL');
    await alertmanagers[0].kill();
    sim.apply({ recover_check: 'network' });
    await until(() => hook.requests.length >= 2);
    // Any duplicate of the resolve would come within the survivor's peer timeout.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const received = webhooks();
    expect(received.map((body) => body.status)).toEqual(['firing', 'resolved']);
    expect(received[1].alerts.map((alert) => `${alert.status}:${alert.labels.alertname}:${alert.labels.target}`)).toEqual([
      'resolved:AvalancheNodeUnhealthy:node-a',
    ]);
  }, 120_000);

  it('a silence made in the cluster outlives the kill -9 of the member it was made on: the replicas’ resends page nobody until it expires', async () => {
    const { hook, sim, alertmanagers, urls } = await formedCluster();
    await replica(sim.url, urls);
    await replica(sim.url, urls);

    // The operator silences the node on one member, as amtool would; it gossips to the other.
    const now = Date.now();
    const posted = await fetch(`${alertmanagers[0].url}/api/v2/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        matchers: [{ name: 'target', value: 'node-a', isRegex: false, isEqual: true }],
        startsAt: new Date(now).toISOString(),
        endsAt: new Date(now + 3_600_000).toISOString(),
        createdBy: 'test',
        comment: 'maintenance',
      }),
    }).then((response) => response.json() as Promise<{ silenceID: string }>);
    const silencesOn = (url: string) =>
      fetch(`${url}/api/v2/silences`).then((response) => response.json() as Promise<Array<{ id: string; status: { state: string } }>>);
    await until(async () => (await silencesOn(alertmanagers[1].url)).some((silence) => silence.id === posted.silenceID));
    await alertmanagers[0].kill();

    sim.apply({ fail_check: 'network' });
    // Both replicas send the alert to the survivor every 2 s; it is silenced there, so nothing reaches the operator.
    await until(async () => {
      const alerts = await fetch(`${alertmanagers[1].url}/api/v2/alerts`).then(
        (response) => response.json() as Promise<Array<{ labels: Record<string, string>; status: { state: string } }>>,
      );
      return alerts.some((alert) => alert.labels.alertname === 'AvalancheNodeUnhealthy' && alert.status.state === 'suppressed');
    });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(hook.requests).toHaveLength(0);

    // The silence ends: the alert, still firing, pages once.
    await fetch(`${alertmanagers[1].url}/api/v2/silence/${posted.silenceID}`, { method: 'DELETE' });
    await until(() => hook.requests.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(hook.requests.map((request) => (request.json as AmWebhook).status)).toEqual(['firing']);
  }, 120_000);
});
