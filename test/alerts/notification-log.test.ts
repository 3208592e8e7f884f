import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAlertsSection } from '../../src/server/alerts-section.js';
import { type RecordedRequest, statuses } from './recorder.js';
import { drained, health, sec, startAlerting, type Harness } from './harness.js';

const RULES = `  rules:
    AvalancheNodeUnhealthy: { for: 0s, severity: warning }
    AvalancheHealthCheckFailing: { enabled: false }`;

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function start(stateDir?: string, alerts = RULES, receivers = ''): Promise<Harness> {
  const harness = await startAlerting(alerts, receivers, stateDir);
  harnesses.push(harness);
  return harness;
}

async function stop(harness: Harness): Promise<void> {
  harnesses.splice(harnesses.indexOf(harness), 1);
  await harness.close();
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

const FLAPPING = `  flap_window: 1h
  flap_max_transitions: 2
  flap_settle: 30s
${RULES}`;
/** An Alertmanager receiver beside the webhook, on the same recorder (its posts go to /api/v2/alerts). */
const ALERTMANAGER = '    - { name: am, type: alertmanager, url: HOOK_URL }';
/** Silences compare with the wall clock: these evaluations run on it. */
const BASE = Date.now();
const at = (seconds: number) => BASE + seconds * 1000;
const hookOnly = (requests: readonly RecordedRequest[]) => requests.filter((request) => request.path === '/hook');
const alertmanagerPosts = (requests: readonly RecordedRequest[]) =>
  requests.filter((request) => request.path === '/api/v2/alerts').map((request) => request.json as Array<{ endsAt?: string }>);

/** Rewrites a state_dir as the version that kept dispatch's verdicts on the alerts of alerts.json (version 2) wrote it. */
function asVerdictsOnAlerts(stateDir: string): void {
  const alerts = readJson(stateDir, 'alerts.json');
  const nflog = readJson(stateDir, 'nflog.json');
  const onAlerts = alerts.alerts.map((alert: { fingerprint: string }) => {
    const { held, muted } = nflog.alerts[alert.fingerprint] ?? {};
    return { ...alert, held, muted };
  });
  for (const entry of Object.values(nflog.alerts) as Array<Record<string, unknown>>) {
    delete entry.held;
    delete entry.muted;
  }
  writeFileSync(join(stateDir, 'alerts.json'), JSON.stringify({ ...alerts, alerts: onAlerts }));
  writeFileSync(join(stateDir, 'nflog.json'), JSON.stringify(nflog));
}

describe("dispatch's verdicts (a flap hold, muting) are the notification log's, never the alerts'", () => {
  /** One alert flapped: firing, resolved, then firing as the flapping notice; its resolve at 30 s is held. */
  async function heldThenStopped(): Promise<{ stateDir: string; fingerprint: string }> {
    const first = await start(undefined, FLAPPING);
    for (let step = 0; step < 4; step++) {
      first.alerting.evaluate(health(step % 2 === 0 ? 0 : 1), sec(step * 10));
      await drained(first.alerting);
    }
    expect(statuses(first.hook.requests)).toEqual([
      'firing:AvalancheNodeUnhealthy',
      'resolved:AvalancheNodeUnhealthy',
      'firing:AvalancheNodeUnhealthy',
    ]);
    const [alert] = first.alerting.activeAlerts();
    expect(first.alerting.verdicts.verdictOn(alert.fingerprint)).toMatchObject({ held: 'resolved', flappingSince: sec(20) });
    await stop(first);
    return { stateDir: first.stateDir, fingerprint: alert.fingerprint };
  }

  /** After a restart: the held resolve is still held, shown so, and goes out once when the alert settles (30 s after 30 s). */
  async function restartStillHolds(stateDir: string, fingerprint: string): Promise<void> {
    const second = await start(stateDir, FLAPPING);
    expect(second.alerting.verdicts.verdictOn(fingerprint).held).toBe('resolved');
    expect(renderAlertsSection(second.alerting, { detailed: true })).toContain('firing (flapping, resolved held until it settles)');
    second.alerting.evaluate(health(1), sec(40));
    await drained(second.alerting);
    // Had the hold been forgotten, the resolve at 40 s would be a new change, held until 70 s.
    expect(second.hook.requests).toHaveLength(0);
    second.alerting.evaluate(health(1), sec(60));
    second.alerting.evaluate(health(1), sec(70));
    await drained(second.alerting);
    expect(statuses(second.hook.requests)).toEqual(['resolved:AvalancheNodeUnhealthy']);
    expect(second.alerting.activeAlerts()).toHaveLength(0);
  }

  it('keeps a held change in nflog.json, not on the alert in alerts.json, across a restart', async () => {
    const { stateDir, fingerprint } = await heldThenStopped();
    expect(readJson(stateDir, 'nflog.json').alerts[fingerprint].held).toBe('resolved');
    const [alert] = readJson(stateDir, 'alerts.json').alerts;
    expect(Object.keys(alert)).not.toContain('held');
    expect(Object.keys(alert)).not.toContain('muted');
    await restartStillHolds(stateDir, fingerprint);
  });

  it('takes over a hold from a state_dir whose alerts.json carried it (version 2 as first written)', async () => {
    const { stateDir, fingerprint } = await heldThenStopped();
    asVerdictsOnAlerts(stateDir);
    expect(readJson(stateDir, 'alerts.json').alerts[0].held).toBe('resolved');
    const second = await start(stateDir, FLAPPING);
    // Handed over at the start: the log has it, then alerts.json is rewritten without it.
    expect(readJson(stateDir, 'nflog.json').alerts[fingerprint].held).toBe('resolved');
    expect(Object.keys(readJson(stateDir, 'alerts.json').alerts[0])).not.toContain('held');
    await stop(second);
    await restartStillHolds(stateDir, fingerprint);
  });

  /**
   * A firing alert notified to the webhook and to Alertmanager, then silenced: Alertmanager is told
   * it ended. Stopped before that withdrawal was surely sent. Returns the state_dir, the alert and the silence.
   */
  async function silencedThenStopped(): Promise<{ stateDir: string; fingerprint: string; silence: string; first: Harness }> {
    const first = await start(undefined, RULES, ALERTMANAGER);
    first.alerting.evaluate(health(0), at(0));
    await drained(first.alerting);
    expect(statuses(hookOnly(first.hook.requests))).toEqual(['firing:AvalancheNodeUnhealthy']);
    const silence = first.alerting.silences.upsert({
      matchers: [{ name: 'target', value: 'validator-1', isRegex: false }],
      startsAt: new Date(at(-60)).toISOString(),
      endsAt: new Date(at(3600)).toISOString(),
      createdBy: 'test',
      comment: 'maintenance',
    });
    first.alerting.evaluate(health(0), at(10));
    const [alert] = first.alerting.activeAlerts();
    expect(first.alerting.verdicts.verdictOn(alert.fingerprint).muted).toBe(`silenced by ${silence}`);
    await stop(first);
    return { stateDir: first.stateDir, fingerprint: alert.fingerprint, silence, first };
  }

  /** After a restart: shown silenced at once; no notification but the one withdrawal, which is not lost. */
  async function restartStillSilenced(stateDir: string, fingerprint: string, silence: string, before: readonly RecordedRequest[]) {
    const second = await start(stateDir, RULES, ALERTMANAGER);
    // Before any evaluation: from the log, not recomputed.
    expect(second.alerting.verdicts.verdictOn(fingerprint).muted).toBe(`silenced by ${silence}`);
    expect(renderAlertsSection(second.alerting, { detailed: true })).toContain(`firing (silenced by ${silence})`);
    for (let seconds = 20; seconds <= 120; seconds += 20) second.alerting.evaluate(health(0), at(seconds));
    await drained(second.alerting);
    const requests = [...before, ...second.hook.requests];
    expect(statuses(hookOnly(requests))).toEqual(['firing:AvalancheNodeUnhealthy']);
    // Alertmanager: the firing, then once the end that makes it stop paging, and nothing after it.
    expect(alertmanagerPosts(requests).map((alerts) => Date.parse(alerts[0].endsAt!) <= at(10))).toEqual([false, true]);
  }

  it('keeps why a firing alert is muted in nflog.json across a restart: no re-notification, the withdrawal sent once', async () => {
    const { stateDir, fingerprint, silence, first } = await silencedThenStopped();
    expect(readJson(stateDir, 'nflog.json').alerts[fingerprint].muted).toBe(`silenced by ${silence}`);
    expect(Object.keys(readJson(stateDir, 'alerts.json').alerts[0])).not.toContain('muted');
    await restartStillSilenced(stateDir, fingerprint, silence, first.hook.requests);
  });

  it('takes over muting from a state_dir whose alerts.json carried it (version 2 as first written)', async () => {
    const { stateDir, fingerprint, silence, first } = await silencedThenStopped();
    asVerdictsOnAlerts(stateDir);
    expect(readJson(stateDir, 'alerts.json').alerts[0].muted).toBe(`silenced by ${silence}`);
    await restartStillSilenced(stateDir, fingerprint, silence, first.hook.requests);
    expect(readJson(stateDir, 'nflog.json').alerts[fingerprint].muted).toBe(`silenced by ${silence}`);
    expect(Object.keys(readJson(stateDir, 'alerts.json').alerts[0])).not.toContain('muted');
  });
});
