import { afterEach, describe, expect, it } from 'vitest';
import { avaxmonNotificationsFailing } from '../../src/alerts/evaluation/rules/avaxmon-notifications-failing.js';
import { SampleIndex } from '../../src/alerts/evaluation/sample-index.js';
import { renderAlertsSection } from '../../src/server/alerts-section.js';
import { startRecorder, statuses, type Recorder } from './recorder.js';
import { drained, health, sec, startAlerting, webhookAlerts, type Harness } from './harness.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** `hook` works; `pager` takes warnings only and answers every request with `status`. */
async function withPager(status: number): Promise<{ harness: Harness; pager: Recorder; attempts: number[] }> {
  const pager = await startRecorder();
  const attempts: number[] = [];
  pager.respond = () => {
    attempts.push(status);
    return { status };
  };
  const harness = await startAlerting(
    `  rules:
    AvalancheNodeUnhealthy: { for: 0s, severity: warning }
    AvalancheHealthCheckFailing: { enabled: false }`,
    `    - { name: pager, type: webhook, url: ${pager.url}/pager, severity: [warning] }`,
  );
  cleanups.push(
    () => harness.close(),
    () => pager.close(),
  );
  return { harness, pager, attempts };
}

describe('AvaxmonNotificationsFailing', () => {
  it('fires when a receiver rejects a notification, goes to every other receiver but not the failing one, and shows on the status page', async () => {
    const { harness, attempts } = await withPager(400);
    const { alerting, hook } = harness;
    alerting.evaluate(health(0), sec(0));
    await drained(alerting);
    expect(attempts).toEqual([400]);
    // The rule reads the alert plane's own samples, as the daemon's next evaluation does.
    alerting.evaluate([...health(0), ...alerting.samples()], sec(15));
    await drained(alerting);
    const failing = webhookAlerts(hook).filter((alert) => alert.labels.alertname === 'AvaxmonNotificationsFailing');
    expect(failing.map((alert) => alert.labels)).toEqual([
      { alertname: 'AvaxmonNotificationsFailing', receiver: 'pager', severity: 'critical' },
    ]);
    expect(failing[0].annotations.description).toContain('rejected, expired or dropped');
    // Not sent to the failing receiver itself, though a critical alert is outside its severity filter anyway: it saw one request.
    expect(attempts).toHaveLength(1);
    expect(renderAlertsSection(alerting, { detailed: true })).toMatch(
      /<td>pager<\/td><td>webhook<\/td><td>warning<\/td><td><span class="badge bad">failing<\/span>/,
    );
    // 15 minutes without another rejection: it resolves.
    alerting.evaluate([...health(0), ...alerting.samples()], sec(15 + 900));
    await drained(alerting);
    expect(statuses(hook.requests).at(-1)).toBe('resolved:AvaxmonNotificationsFailing');
  });

  it('fires when the receiver’s oldest queued notification is older than 10 minutes', async () => {
    const { harness } = await withPager(503);
    const { alerting, hook } = harness;
    alerting.evaluate(health(0), sec(0));
    alerting.evaluate([...health(0), ...alerting.samples(Date.now() + 5 * 60_000)], sec(300));
    await hook.waitFor(1);
    const failing = () => webhookAlerts(hook).filter((alert) => alert.labels.alertname === 'AvaxmonNotificationsFailing');
    expect(failing()).toHaveLength(0);
    alerting.evaluate([...health(0), ...alerting.samples(Date.now() + 11 * 60_000)], sec(660));
    await hook.waitFor(2);
    expect(failing()[0].labels).toMatchObject({ alertname: 'AvaxmonNotificationsFailing', receiver: 'pager' });
    expect(failing()[0].annotations.description).toMatch(/oldest queued notification has waited 11m/);
  });

  it('fires when a full outbox drops one of a receiver’s notifications, and stops once the window passes', () => {
    const memory = new Map<string, unknown>();
    const params = { window: 900, max_queue_age: 600 };
    const evaluateAt = (dropped: number, nowMs: number) =>
      avaxmonNotificationsFailing.evaluate({
        samples: new SampleIndex([
          { name: 'avaxmon_notification_receiver_oldest_queued_age_seconds', labels: { receiver: 'relay' }, value: 0 },
          { name: 'avaxmon_notifications_dropped_total', labels: { receiver: 'relay', reason: 'outbox_full' }, value: dropped },
        ]),
        nowMs,
        params,
        memory,
      });
    expect(evaluateAt(0, 0)).toEqual([]);
    const firing = evaluateAt(1, 10_000);
    expect(firing.map((candidate) => candidate.labels)).toEqual([{ receiver: 'relay' }]);
    expect(firing[0].description).toContain('dropped');
    expect(evaluateAt(1, 10_000 + 901_000)).toEqual([]);
  });
});
