import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALERTMANAGER, freePort, startRealSystem, type RealSystem } from '../helpers/real-systems.js';
import { scrape, startStack, valueOf, type Stack } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';
import { until } from '../helpers/until.js';
import { startRecorder, type Recorder } from './recorder.js';

const hasAlertmanager = requireTool(ALERTMANAGER, 'prometheus-alertmanager');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface AmWebhook {
  status: string;
  alerts: Array<{ status: string; labels: Record<string, string> }>;
}

// The second replica runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

function alertsYaml(alertmanagerUrl: string): string {
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-ha-'));
  return `alerts:
  state_dir: ${stateDir}
  group_wait: 0s      # these tests follow single alerts, not grouping delays
  group_interval: 0s
  rules:
    AvalancheNodeUnhealthy: { for: 1s }
    AvalancheHealthCheckFailing: { enabled: false }
    AvalancheSubnetUnhealthy: { enabled: false }
    AvalancheChainStalled: { enabled: false }
  receivers:
    - { name: am, type: alertmanager, url: ${alertmanagerUrl}, match: { alertname: AvalancheNodeUnhealthy } }
`;
}

/** Replica one: a daemon in this process, with the simulated node. */
async function inProcessReplica(alertmanagerUrl: string): Promise<Stack> {
  const stack = await startStack({ extraYaml: alertsYaml(alertmanagerUrl) });
  cleanups.push(() => stack.close());
  return stack;
}

/** Replica two: a separate avaxmon process watching the same node with its own state directory. */
async function processReplica(alertmanagerUrl: string, targetUrl: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-ha-'));
  const configFile = join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `global: { interval: 1s, timeout: 1s }\ntargets: [{ name: node-a, url: "${targetUrl}" }]\n${alertsYaml(alertmanagerUrl)}`,
  );
  const port = await freePort();
  const child = spawn('node', [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
    stdio: 'ignore',
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        // A replica that already exited sends no second 'exit': waiting for one would hang the cleanup.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  return `http://127.0.0.1:${port}`;
}

/** Notifications a replica delivered to Alertmanager, from its /metrics. */
async function deliveredBy(url: string): Promise<number> {
  return valueOf(await scrape(url), 'avaxmon_notifications_total', { receiver: 'am', outcome: 'delivered' }) ?? 0;
}

/** Alertmanager's notification log queries: one per flush of a group that holds alerts (one receiver here). */
async function nflogQueries(url: string): Promise<number> {
  return valueOf(await scrape(url), 'alertmanager_nflog_queries_total') ?? 0;
}

describe.skipIf(!hasAlertmanager)('two replicas behind a real Alertmanager', () => {
  it('the same alert from both replicas becomes one notification, then one resolve', async () => {
    const hook: Recorder = await startRecorder();
    cleanups.push(() => hook.close());
    const alertmanager: RealSystem = await startRealSystem(
      ALERTMANAGER,
      {
        'alertmanager.yml': `route:
  receiver: hook
  group_by: [alertname, target]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: ${hook.url}/am
        send_resolved: true
`,
      },
      (dir, listen) => [
        '--config.file=alertmanager.yml',
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=${listen}`,
        '--cluster.listen-address=',
      ],
    );
    cleanups.push(() => alertmanager.stop());

    const first = await inProcessReplica(alertmanager.url);
    const secondUrl = await processReplica(alertmanager.url, first.sim.url);
    // Let the second replica finish its first collection round before the node turns unhealthy.
    await until(async () => (await fetch(`${secondUrl}/-/ready`).catch(() => undefined))?.status === 200);
    first.sim.apply({ fail_check: 'network' });

    await until(() => hook.requests.length >= 1);
    // Both replicas sent it; a second notification would follow within one group_interval (1s).
    await until(async () => (await deliveredBy(first.url)) >= 1 && (await deliveredBy(secondUrl)) >= 1);
    // Each flush of the group asks the notification log whether to notify. The first query after
    // both alerts were in began a flush that saw both; the second began after that flush, and any
    // notification it sent, had ended.
    const queried = await nflogQueries(alertmanager.url);
    await until(async () => (await nflogQueries(alertmanager.url)) >= queried + 2);
    const firing = hook.requests.map((request) => request.json as AmWebhook);
    expect(firing).toHaveLength(1);
    expect(firing[0].status).toBe('firing');
    expect(firing[0].alerts).toHaveLength(1);
    expect(firing[0].alerts[0].labels).toMatchObject({ alertname: 'AvalancheNodeUnhealthy', target: 'node-a', severity: 'critical' });

    const received = await fetch(`${alertmanager.url}/api/v2/alerts`).then(
      (response) => response.json() as Promise<Array<{ labels: Record<string, string> }>>,
    );
    expect(received.filter((alert) => alert.labels.alertname === 'AvalancheNodeUnhealthy')).toHaveLength(1);
    // Both replicas did send it: the deduplication is Alertmanager's.
    for (const url of [first.url, secondUrl]) expect(await deliveredBy(url)).toBeGreaterThanOrEqual(1);

    const firingDelivered = [await deliveredBy(first.url), await deliveredBy(secondUrl)];
    first.sim.apply({ recover_check: 'network' });
    await until(() => hook.requests.length >= 2);
    // Both replicas sent the resolve; a repeat would follow within one group_interval.
    await until(async () => (await deliveredBy(first.url)) > firingDelivered[0] && (await deliveredBy(secondUrl)) > firingDelivered[1]);
    // A resolved group may flush no more, so a barrier instead: an alert of the same group, sent now.
    // Its group's flushes run one after another, so whatever the later resolve caused comes first.
    await fetch(`${alertmanager.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ labels: { alertname: 'AvalancheNodeUnhealthy', target: 'node-a', barrier: 'true' } }]),
    });
    const isBarrier = (body: AmWebhook) => body.alerts.some((alert) => alert.labels.barrier === 'true');
    await until(() => hook.requests.some((request) => isBarrier(request.json as AmWebhook)));
    const all = hook.requests.map((request) => request.json as AmWebhook);
    const beforeBarrier = all.slice(0, all.findIndex(isBarrier));
    expect(beforeBarrier.map((body) => body.status)).toEqual(['firing', 'resolved']);
  });
});
