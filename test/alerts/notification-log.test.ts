import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statuses } from './recorder.js';
import { drained, health, sec, startAlerting, type Harness } from './harness.js';

const RULES = `  rules:
    AvalancheNodeUnhealthy: { for: 0s, severity: warning }
    AvalancheHealthCheckFailing: { enabled: false }`;

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function start(stateDir?: string): Promise<Harness> {
  const harness = await startAlerting(RULES, '', stateDir);
  harnesses.push(harness);
  return harness;
}

const readJson = (stateDir: string, file: string) => JSON.parse(readFileSync(join(stateDir, file), 'utf8'));

/** An alert fired and was notified to `hook`; the plane stopped. Returns its state_dir. */
async function notifiedThenStopped(): Promise<string> {
  const first = await start();
  first.alerting.evaluate(health(0), sec(0));
  await drained(first.alerting);
  expect(statuses(first.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
  await first.alerting.stop(0);
  return first.stateDir;
}

/** After a restart on `stateDir`: the alert still firing is not announced again, and its end is sent. */
async function restartKnowsItWasNotified(stateDir: string): Promise<void> {
  const second = await start(stateDir);
  second.alerting.evaluate(health(0), sec(5));
  await drained(second.alerting);
  expect(second.hook.requests).toHaveLength(0);
  second.alerting.evaluate(health(1), sec(10));
  await drained(second.alerting);
  // Without knowing the alert was notified, it would close silently and leave the page open.
  expect(statuses(second.hook.requests)).toEqual(['resolved:AvalancheNodeUnhealthy']);
}

describe('the notification log is the one place that says what was notified', () => {
  it('keeps whom an alert was notified to in nflog.json, not in alerts.json, across a restart', async () => {
    const stateDir = await notifiedThenStopped();
    const [alert] = readJson(stateDir, 'alerts.json').alerts;
    expect(alert.state).toBe('firing');
    expect(Object.keys(alert)).not.toContain('notified');
    expect(Object.keys(alert)).not.toContain('reminders');
    const nflog = readJson(stateDir, 'nflog.json');
    expect(Object.keys(nflog.alerts[alert.fingerprint].receivers)).toEqual(['hook']);
    await restartKnowsItWasNotified(stateDir);
  });

  it('takes over a state_dir written before the log held it (alerts.json version 1, nflog.json a list of groups)', async () => {
    const stateDir = await notifiedThenStopped();
    // The same state as the version before wrote it: what was notified on each alert and the flap
    // damper's memory in alerts.json, the notification log a bare list of its group entries.
    const alerts = readJson(stateDir, 'alerts.json');
    const nflog = readJson(stateDir, 'nflog.json');
    const v1Alerts = alerts.alerts.map((alert: { fingerprint: string }) => ({
      ...alert,
      notified: nflog.alerts[alert.fingerprint].receivers,
      reminders: nflog.alerts[alert.fingerprint].reminders,
    }));
    writeFileSync(join(stateDir, 'alerts.json'), JSON.stringify({ version: 1, alerts: v1Alerts, ...nflog.flap }));
    writeFileSync(join(stateDir, 'nflog.json'), JSON.stringify(nflog.groups));

    const second = await start(stateDir);
    const fingerprint = v1Alerts[0].fingerprint;
    // Handed over at the start, before alerts.json is written without it.
    expect(readJson(stateDir, 'nflog.json').alerts[fingerprint].receivers).toEqual(v1Alerts[0].notified);
    harnesses.splice(harnesses.indexOf(second), 1);
    await second.close();
    await restartKnowsItWasNotified(stateDir);
    expect(readJson(stateDir, 'alerts.json').version).toBe(2);
  });

  it('forgets an alert once its end went out', async () => {
    const stateDir = await notifiedThenStopped();
    await restartKnowsItWasNotified(stateDir);
    expect(readJson(stateDir, 'nflog.json').alerts).toEqual({});
    expect(readJson(stateDir, 'alerts.json').alerts).toEqual([]);
  });
});
