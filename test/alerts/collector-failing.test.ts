import { afterEach, describe, expect, it } from 'vitest';
import { AlertEngine } from '../../src/alerts/evaluation/engine.js';
import { parseConfig } from '../../src/config/load.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { statuses } from './recorder.js';
import { drained, health, sec, silentLog, startAlerting, T0, targetUp, webhookAlerts, type Harness } from './harness.js';
import { noDispatch } from './no-dispatch.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

const collector = (name: string, success: number, lastSuccessSeconds: number): Sample[] => [
  { name: 'avaxmon_collector_success', labels: { target: 'validator-1', collector: name }, value: success },
  {
    name: 'avaxmon_collector_last_success_timestamp_seconds',
    labels: { target: 'validator-1', collector: name },
    value: lastSuccessSeconds,
  },
];

async function start(): Promise<Harness> {
  const harness = await startAlerting(`  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }`);
  harnesses.push(harness);
  return harness;
}

describe('AvaxmonCollectorFailing and stale alerts', () => {
  it('fires after 3 failed intervals with the error, keeps the collector’s alert firing (stale) far past 5 minutes, and resolves both on recovery', async () => {
    const harness = await start();
    // The daemon's collector lookup is absent here: the rule assumes the 60 s default interval.
    harness.alerting.evaluate([...health(0), ...collector('health', 1, T0 / 1000)], sec(0));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
    // The health collector fails: its series vanish, only its self-metrics stay.
    for (let second = 60; second <= 1800; second += 60)
      harness.alerting.evaluate([targetUp('validator-1'), ...collector('health', 0, T0 / 1000)], sec(second));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'firing:AvaxmonCollectorFailing']);
    const failing = webhookAlerts(harness.hook)[1];
    expect(failing.labels).toMatchObject({ target: 'validator-1', collector: 'health', severity: 'warning' });
    // Three 1-minute intervals without success, then its `for` of 1m: firing at the fourth minute.
    expect(failing.annotations.description).toContain('has not succeeded for 4m');
    const unhealthy = harness.alerting.activeAlerts().find((alert) => alert.rule === 'AvalancheNodeUnhealthy');
    expect(unhealthy?.stale).toBe(true);
    // It recovers: the node is healthy again, both resolve.
    harness.alerting.evaluate([...health(1), ...collector('health', 1, sec(1860) / 1000)], sec(1860));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests).slice(2).sort()).toEqual([
      'resolved:AvalancheNodeUnhealthy',
      'resolved:AvaxmonCollectorFailing',
    ]);
  });

  it('uses the daemon’s interval and error for the collector', async () => {
    const harness = await startAlerting('  rules: {}', '', undefined, () => ({
      intervalMs: 15_000,
      lastError: 'HTTP 401 from validator-1 info.getNodeID',
    }));
    harnesses.push(harness);
    const { alerting } = harness;
    alerting.evaluate([targetUp('validator-1'), ...collector('peers', 0, T0 / 1000)], sec(30));
    await drained(alerting);
    expect(harness.hook.requests).toHaveLength(0);
    alerting.evaluate([targetUp('validator-1'), ...collector('peers', 0, T0 / 1000)], sec(45));
    await drained(alerting);
    expect(harness.hook.requests).toHaveLength(0);
    // Pending since 45 s (three 15 s intervals): firing once its `for` of 1m has passed.
    alerting.evaluate([targetUp('validator-1'), ...collector('peers', 0, T0 / 1000)], sec(105));
    await drained(alerting);
    expect(webhookAlerts(harness.hook)[0].annotations.error).toBe('HTTP 401 from validator-1 info.getNodeID');
  });

  it('resolves an alert whose data is missing after 5 minutes when no collector of the target fails (collector disabled)', async () => {
    const harness = await start();
    harness.alerting.evaluate(health(0), sec(0));
    for (let second = 60; second <= 420; second += 60) harness.alerting.evaluate([targetUp('validator-1')], sec(second));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
  });
});

describe('stale_expiry', () => {
  it('resolves an alert that stayed stale that long, when the operator set it', async () => {
    const harness = await startAlerting(`  stale_expiry: 1h
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }
    AvaxmonCollectorFailing: { enabled: false }`);
    harnesses.push(harness);
    harness.alerting.evaluate([...health(0), ...collector('health', 1, T0 / 1000)], sec(0));
    for (const second of [60, 1800, 3600])
      harness.alerting.evaluate([targetUp('validator-1'), ...collector('health', 0, T0 / 1000)], sec(second));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
    harness.alerting.evaluate([targetUp('validator-1'), ...collector('health', 0, T0 / 1000)], sec(3660));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
  });
});

describe('the unknown-data hold is evaluation’s own', () => {
  const engine = () =>
    new AlertEngine(
      parseConfig(`alerts:
  rules:
    AvalancheNodeUnhealthy: { for: 1m }
    AvalancheHealthCheckFailing: { enabled: false }
    AvaxmonCollectorFailing: { enabled: false }`).alerts!,
      { log: silentLog, consumer: noDispatch, save: () => {} },
    );
  const states = (alerts: AlertEngine) => alerts.active().map((alert) => `${alert.state}${alert.stale ? ' (stale)' : ''}`);
  const failing = [targetUp('validator-1'), ...collector('health', 0, T0 / 1000)];

  it('holds a firing alert whose data is missing, with no dispatch behind it to say whom it paged', () => {
    const alerts = engine();
    alerts.evaluate([...health(0), ...collector('health', 1, T0 / 1000)], sec(0));
    alerts.evaluate([...health(0), ...collector('health', 1, T0 / 1000)], sec(60));
    expect(states(alerts)).toEqual(['firing']);
    alerts.evaluate(failing, sec(120));
    alerts.evaluate(failing, sec(3600));
    expect(states(alerts)).toEqual(['firing (stale)']);
    // No collector failing: held 5 minutes from when the data went missing, then gone.
    alerts.evaluate([targetUp('validator-1')], sec(3900));
    expect(states(alerts)).toEqual([]);
  });

  it('lets a pending alert whose data is missing go: it cannot fire on data it does not have', () => {
    const alerts = engine();
    alerts.evaluate([...health(0), ...collector('health', 1, T0 / 1000)], sec(0));
    expect(states(alerts)).toEqual(['pending']);
    alerts.evaluate(failing, sec(30));
    expect(states(alerts)).toEqual([]);
  });
});
