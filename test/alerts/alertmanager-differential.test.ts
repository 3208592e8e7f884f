import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { ALERTMANAGER, startRealSystem, startWebhookReceiver, type RealSystem, type WebhookReceiver } from '../helpers/real-systems.js';
import { requireTool } from '../helpers/tools.js';
import { startAlerting, targetUp, type Harness } from './harness.js';

/**
 * The same alert stream through avaxmon's webhook receiver and through the real Alertmanager (same
 * grouping), compared notification by notification: avaxmon's webhooks must read as Alertmanager's.
 */

const GROUP_WAIT = '500ms';
const GROUP_INTERVAL = '1s';
const NODES = 10;
/**
 * Each change holds this long: both flush it within one group_interval of its arrival (group_wait for
 * the first), so each change is one notification in both, with 1.5 s to spare before the next.
 */
const STEP_MS = 2_500;
/** How often the engine evaluates and Alertmanager is fed, as a Prometheus evaluation would. */
const FEED_MS = 250;

interface Notification {
  readonly status: string;
  readonly groupKey: string;
  readonly groupLabels: Record<string, string>;
  readonly truncatedAlerts: number;
  readonly alerts: Array<{ status: string; labels: Record<string, string>; fingerprint: string }>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const fleet = (unhealthy: ReadonlySet<number>): Sample[] =>
  Array.from({ length: NODES }, (_, index) => [
    targetUp(`validator-${index}`),
    { name: 'avaxmon_node_healthy', labels: { target: `validator-${index}` }, value: unhealthy.has(index) ? 0 : 1 },
  ]).flat();

/** What a tool keyed on Alertmanager's webhook reads, with the times left out. */
function comparable(body: Notification) {
  return {
    status: body.status,
    groupKey: body.groupKey,
    groupLabels: body.groupLabels,
    truncatedAlerts: body.truncatedAlerts,
    alerts: body.alerts.map((alert) => ({ status: alert.status, labels: alert.labels, fingerprint: alert.fingerprint })),
  };
}

/**
 * Feeds Alertmanager as Prometheus does: every firing alert of the engine, re-sent every `FEED_MS` with
 * an endsAt ahead, and an alert that stopped firing once with endsAt now.
 */
function alertmanagerFeeder(harness: Harness, alertmanager: RealSystem) {
  const firing = new Map<string, { labels: Record<string, string>; startsAt: string }>();
  return async () => {
    const nowMs = Date.now();
    const current = new Map(
      harness.alerting
        .activeAlerts()
        .filter((alert) => alert.state === 'firing')
        .map((alert) => [
          JSON.stringify(alert.labels),
          { labels: { ...alert.labels }, startsAt: new Date(alert.activeSinceMs).toISOString() },
        ]),
    );
    const resolved = [...firing]
      .filter(([key]) => !current.has(key))
      .map(([, alert]) => ({ ...alert, endsAt: new Date(nowMs).toISOString() }));
    const active = [...current.values()].map((alert) => ({ ...alert, endsAt: new Date(nowMs + 10_000).toISOString() }));
    firing.clear();
    for (const [key, alert] of current) firing.set(key, alert);
    const response = await fetch(`${alertmanager.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([...active, ...resolved]),
    });
    expect(response.status).toBe(200);
  };
}

describe('avaxmon and Alertmanager notify a group the same way', () => {
  it('partial failures and partial recoveries: the same notifications, field by field', async () => {
    if (!requireTool(ALERTMANAGER, 'prometheus-alertmanager')) return;
    const receiver: WebhookReceiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const alertmanager = await startRealSystem(
      ALERTMANAGER,
      {
        'alertmanager.yml': `route:
  receiver: hook
  group_by: [alertname]
  group_wait: ${GROUP_WAIT}
  group_interval: ${GROUP_INTERVAL}
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: ${receiver.url}
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
    const harness = await startAlerting(`  group_by: [alertname]
  group_wait: ${GROUP_WAIT}
  group_interval: ${GROUP_INTERVAL}
  repeat_interval: 1h
  rules: { AvalancheNodeUnhealthy: { for: 0s }, AvalancheHealthCheckFailing: { enabled: false } }`);
    cleanups.push(() => harness.close());
    const feed = alertmanagerFeeder(harness, alertmanager);

    // 3 nodes fail; 7 more fail; the first 3 recover while 7 stay down; the 7 recover.
    const steps: Array<ReadonlySet<number>> = [
      new Set([0, 1, 2]),
      new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
      new Set([3, 4, 5, 6, 7, 8, 9]),
      new Set(),
    ];
    for (const unhealthy of steps) {
      for (const stepEnd = Date.now() + STEP_MS; Date.now() < stepEnd; ) {
        harness.alerting.evaluate(fleet(unhealthy), Date.now());
        await feed();
        await new Promise((resolve) => setTimeout(resolve, FEED_MS));
      }
    }

    const ours = harness.hook.requests.map((request) => comparable(request.json as Notification));
    const theirs = (receiver.bodies as Notification[]).map(comparable);
    expect(theirs.map((body) => body.status)).toEqual(['firing', 'firing', 'firing', 'resolved']);
    expect(ours).toEqual(theirs);
    // The middle of the outage: the group still fires, with 7 firing and 3 resolved alerts.
    expect(ours[2].alerts.filter((alert) => alert.status === 'firing')).toHaveLength(7);
  }, 180_000);
});
