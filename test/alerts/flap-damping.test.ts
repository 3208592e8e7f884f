import { afterEach, describe, expect, it } from 'vitest';
import { statuses } from './recorder.js';
import { drained, health, sec, startAlerting, webhookAlerts, type Harness } from './harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function flapping(maxTransitions: number, severity: 'critical' | 'warning'): Promise<Harness> {
  const harness = await startAlerting(`  flap_window: 1h
  flap_max_transitions: ${maxTransitions}
  flap_settle: 30s
  rules:
    AvalancheNodeUnhealthy: { for: 0s, severity: ${severity} }
    AvalancheHealthCheckFailing: { enabled: false }`);
  harnesses.push(harness);
  return harness;
}

const heldCount = (harness: Harness) =>
  harness.alerting.samples().find((sample) => sample.name === 'avaxmon_alert_notifications_held_total')?.value ?? 0;

describe('flap damping keeps the last word right', () => {
  it('never holds back a critical firing: after quick flips the node goes down and the last notice says firing', async () => {
    const harness = await flapping(2, 'critical');
    // Each change is delivered before the next: queued changes of one alert collapse to its latest, as in Alertmanager.
    for (let step = 0; step < 9; step++) {
      harness.alerting.evaluate(health(step % 2 === 0 ? 0 : 1), sec(step * 10));
      await drained(harness.alerting);
    }
    for (let second = 90; second <= 200; second += 10) harness.alerting.evaluate(health(0), sec(second));
    await drained(harness.alerting);
    const sent = webhookAlerts(harness.hook);
    expect(sent.at(-1)!.status).toBe('firing');
    expect(sent.filter((alert) => alert.annotations.flapping !== undefined)).toHaveLength(1);
    expect(heldCount(harness)).toBeGreaterThan(0);
  });

  it('sends one flapping notice, holds the flips, and sends the resolve once the alert settles', async () => {
    const harness = await flapping(2, 'warning');
    for (let step = 0; step < 10; step++) {
      harness.alerting.evaluate(health(step % 2 === 0 ? 0 : 1), sec(step * 10));
      await drained(harness.alerting);
    }
    // firing, resolved, then the third change is the notice; the rest is held.
    expect(statuses(harness.hook.requests)).toEqual([
      'firing:AvalancheNodeUnhealthy',
      'resolved:AvalancheNodeUnhealthy',
      'firing:AvalancheNodeUnhealthy',
    ]);
    expect(webhookAlerts(harness.hook)[2].annotations.flapping).toMatch(/changed state more than 2 times/);
    expect(harness.alerting.verdicts.verdictOn(harness.alerting.activeAlerts()[0].fingerprint).held).toBe('resolved');
    harness.alerting.evaluate(health(1), sec(110));
    await drained(harness.alerting);
    expect(harness.hook.requests).toHaveLength(3);
    // 30 s without a change since the last flip at 90 s.
    harness.alerting.evaluate(health(1), sec(120));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests).at(-1)).toBe('resolved:AvalancheNodeUnhealthy');
    expect(harness.alerting.activeAlerts()).toHaveLength(0);
    expect(heldCount(harness)).toBeGreaterThanOrEqual(4);
  });

  it('a transition rolled back because the outbox could not queue it does not count towards flapping', async () => {
    const harness = await flapping(2, 'warning');
    const enqueue = harness.alerting.outbox.enqueue.bind(harness.alerting.outbox);
    let failing = false;
    harness.alerting.outbox.enqueue = (notifications, nowMs) => {
      if (failing) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return enqueue(notifications, nowMs);
    };
    harness.alerting.evaluate(health(0), sec(0));
    failing = true;
    // Without the rollback each failed resolve would count as a change: the alert would be flapping.
    for (let step = 1; step <= 3; step++) harness.alerting.evaluate(health(1), sec(step * 10));
    failing = false;
    harness.alerting.evaluate(health(1), sec(40));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
    expect(webhookAlerts(harness.hook).every((alert) => alert.annotations.flapping === undefined)).toBe(true);
  });

  it('sends a held firing once the alert settles firing, after a resolve was the notice', async () => {
    const harness = await flapping(3, 'warning');
    // Each change is delivered before the next: a firing still queued when its alert resolves is never sent.
    for (let step = 0; step < 7; step++) {
      harness.alerting.evaluate(health(step % 2 === 0 ? 0 : 1), sec(step * 10));
      await drained(harness.alerting);
    }
    // fire, resolve, fire, then the resolve at 30 s is the notice; fire at 40 s, 60 s held.
    expect(statuses(harness.hook.requests)).toEqual([
      'firing:AvalancheNodeUnhealthy',
      'resolved:AvalancheNodeUnhealthy',
      'firing:AvalancheNodeUnhealthy',
      'resolved:AvalancheNodeUnhealthy',
    ]);
    harness.alerting.evaluate(health(0), sec(80));
    await drained(harness.alerting);
    expect(harness.hook.requests).toHaveLength(4);
    harness.alerting.evaluate(health(0), sec(90));
    await drained(harness.alerting);
    expect(statuses(harness.hook.requests).at(-1)).toBe('firing:AvalancheNodeUnhealthy');
    expect(webhookAlerts(harness.hook).at(-1)!.annotations.flapping).toBeUndefined();
  });

  it('keeps its flapping state across a restart', async () => {
    const first = await flapping(2, 'warning');
    for (let step = 0; step < 4; step++) first.alerting.evaluate(health(step % 2 === 0 ? 0 : 1), sec(step * 10));
    await drained(first.alerting);
    await first.alerting.stop(0);
    const second = await startAlerting(
      `  flap_window: 1h
  flap_max_transitions: 2
  rules:
    AvalancheNodeUnhealthy: { for: 0s, severity: warning }
    AvalancheHealthCheckFailing: { enabled: false }`,
      '',
      first.stateDir,
    );
    harnesses.push(second);
    second.alerting.evaluate(health(1), sec(40));
    second.alerting.evaluate(health(1), sec(60));
    await drained(second.alerting);
    // The resolve held at 30 s goes out once 30 s passed without a change, not before.
    expect(statuses(second.hook.requests)).toEqual(['resolved:AvalancheNodeUnhealthy']);
  });
});
