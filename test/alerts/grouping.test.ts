import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { statuses } from './recorder.js';
import { drained, health, sec, startAlerting, type Harness } from './harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

const RULES = `  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }
    AvalanchePeersLow: { for: 0s }`;

const fleet = (unhealthy: readonly number[], size = 5): Sample[] =>
  Array.from({ length: size }, (_, index) => health(unhealthy.includes(index) ? 0 : 1, `validator-${index}`)).flat();

interface WebhookBody {
  status: string;
  groupKey: string;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  alerts: Array<{ status: string; labels: Record<string, string> }>;
}
const bodies = (harness: Harness) => harness.hook.requests.map((request) => request.json as WebhookBody);

async function start(grouping: string, stateDir?: string): Promise<Harness> {
  const harness = await startAlerting(`${grouping}\n${RULES}`, '', stateDir);
  harnesses.push(harness);
  return harness;
}

describe('grouping per receiver', () => {
  it('sends a fleet-wide event as one notification, each later one with the whole group, resolved only when nothing fires', async () => {
    const harness = await start('  group_wait: 200ms\n  group_interval: 1s');
    harness.alerting.evaluate(fleet([0, 1, 2, 3, 4]), sec(0));
    await harness.hook.waitFor(1);
    harness.alerting.evaluate(fleet([3, 4]), sec(15));
    await harness.hook.waitFor(2);
    harness.alerting.evaluate(fleet([]), sec(30));
    await drained(harness.alerting);
    const [first, second, third] = bodies(harness);
    expect(harness.hook.requests).toHaveLength(3);
    expect(first.alerts.map((alert) => alert.labels.target)).toEqual([
      'validator-0',
      'validator-1',
      'validator-2',
      'validator-3',
      'validator-4',
    ]);
    expect(first).toMatchObject({
      status: 'firing',
      groupLabels: { alertname: 'AvalancheNodeUnhealthy' },
      groupKey: '{}:{alertname="AvalancheNodeUnhealthy"}',
    });
    expect(first.commonLabels).toEqual({ alertname: 'AvalancheNodeUnhealthy', severity: 'critical' });
    expect(harness.hook.requests[0].headers['idempotency-key']).toMatch(/^group-[0-9a-f]{32}$/);
    // Three recover while two still fail: the group still fires, and says so with all five alerts.
    expect(second.status).toBe('firing');
    expect(second.alerts.map((alert) => `${alert.labels.target}:${alert.status}`)).toEqual([
      'validator-0:resolved',
      'validator-1:resolved',
      'validator-2:resolved',
      'validator-3:firing',
      'validator-4:firing',
    ]);
    // The last two recover: the group resolves once, naming only what resolved since the last notification.
    expect(third.status).toBe('resolved');
    expect(third.alerts.map((alert) => `${alert.labels.target}:${alert.status}`)).toEqual(['validator-3:resolved', 'validator-4:resolved']);
    // The group's next notification waits group_interval after the last one.
    expect(harness.hook.requests[1].atMs - harness.hook.requests[0].atMs).toBeGreaterThanOrEqual(950);
  });

  it('reminds a group once per repeat_interval, however far apart its alerts began', async () => {
    const harness = await start('  group_wait: 0s\n  group_interval: 0s\n  repeat_interval: 1h');
    harness.alerting.evaluate(fleet([0]), sec(0));
    await harness.hook.waitFor(1);
    // A second alert joins the group 10 minutes later: its notification carries the first one too.
    harness.alerting.evaluate(fleet([0, 1]), sec(600));
    await harness.hook.waitFor(2);
    // An hour after the first began, the group was last sent 50 minutes ago: no reminder yet.
    harness.alerting.evaluate(fleet([0, 1]), sec(3_600));
    harness.alerting.evaluate(fleet([0, 1]), sec(4_199));
    await drained(harness.alerting);
    expect(harness.hook.requests).toHaveLength(2);
    // An hour after the group's last notification: one reminder, with the whole group.
    harness.alerting.evaluate(fleet([0, 1]), sec(4_200));
    await harness.hook.waitFor(3);
    harness.alerting.evaluate(fleet([0, 1]), sec(7_799));
    await drained(harness.alerting);
    expect(harness.hook.requests).toHaveLength(3);
    expect(bodies(harness)[2].alerts.map((alert) => `${alert.labels.target}:${alert.status}`)).toEqual([
      'validator-0:firing',
      'validator-1:firing',
    ]);
  });

  it('never sends a firing notification whose alert resolved while it waited: it is listed as resolved, as Alertmanager lists it', async () => {
    const harness = await start('  group_wait: 1s');
    harness.alerting.evaluate(fleet([0, 1]), sec(0));
    harness.alerting.evaluate(fleet([1]), sec(10));
    await drained(harness.alerting);
    expect(harness.hook.requests).toHaveLength(1);
    expect(bodies(harness)[0].alerts.map((alert) => `${alert.labels.target}:${alert.status}`)).toEqual([
      'validator-0:resolved',
      'validator-1:firing',
    ]);
  });

  it('sends nothing for a group whose only alert fired and resolved while it waited', async () => {
    const harness = await start('  group_wait: 1s');
    harness.alerting.evaluate(fleet([0]), sec(0));
    harness.alerting.evaluate(fleet([]), sec(10));
    await drained(harness.alerting);
    expect(harness.hook.requests).toHaveLength(0);
  });

  it('groups by the receiver’s group_by: one notification per target', async () => {
    // No inhibition: by default a critical AvalancheNodeUnhealthy explains AvalanchePeersLow on its target.
    const harness = await start('  group_wait: 100ms\n  group_by: [target]\n  inhibit_rules: []');
    harness.alerting.evaluate([...fleet([0, 1], 2), { name: 'avaxmon_node_peers', labels: { target: 'validator-0' }, value: 1 }], sec(0));
    await drained(harness.alerting);
    expect(
      bodies(harness)
        .map((body) => body.groupKey)
        .sort(),
    ).toEqual(['{}:{target="validator-0"}', '{}:{target="validator-1"}']);
    const validator0 = bodies(harness).find((body) => body.groupLabels.target === 'validator-0')!;
    expect(validator0.alerts.map((alert) => alert.labels.alertname).sort()).toEqual(['AvalancheNodeUnhealthy', 'AvalanchePeersLow']);
  });

  it('keeps a group durable: queued alerts survive a restart during group_wait and go out as one notification', async () => {
    const first = await start('  group_wait: 1h');
    first.alerting.evaluate(fleet([0, 1, 2]), sec(0));
    await first.alerting.stop(0);
    expect(first.hook.requests).toHaveLength(0);
    const second = await start('  group_wait: 0s', first.stateDir);
    await second.hook.waitFor(1);
    await drained(second.alerting);
    expect(second.hook.requests).toHaveLength(1);
    expect(statuses(second.hook.requests)).toEqual(Array(3).fill('firing:AvalancheNodeUnhealthy'));
  });

  it('retries a failed group with the same idempotency key', async () => {
    const harness = await start('  group_wait: 0s');
    const keys: string[] = [];
    harness.hook.respond = (request) => {
      keys.push(String(request.headers['idempotency-key']));
      return { status: keys.length === 1 ? 503 : 200 };
    };
    harness.alerting.evaluate(fleet([0, 1]), sec(0));
    await drained(harness.alerting);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(harness.hook.requests).toHaveLength(1);
    expect(bodies(harness)[0].alerts).toHaveLength(2);
  });
});
