import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertPlane } from '../../src/alerts/alert-plane.js';
import { backoffMs } from '../../src/alerts/dispatch/notify/retry-backoff.js';
import { Outbox } from '../../src/alerts/dispatch/outbox.js';
import type { AlertsConfig } from '../../src/config/alerts-schema.js';
import { parseConfig } from '../../src/config/load.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { until } from '../helpers/until.js';
import { startRecorder, type RecordedRequest, type Recorder } from './recorder.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('backoff', () => {
  it('doubles up to the cap, with jitter in the upper half', () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(4, 1000, 60_000, () => 1)).toBe(8000);
    expect(backoffMs(20, 1000, 60_000, () => 0.5)).toBe(45_000);
  });
});

describe('delivery', () => {
  it('honours Retry-After and keeps one alert’s notifications in order', async () => {
    const hook = await startRecorder();
    const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-delivery-'));
    const config = parseConfig(`alerts:
  state_dir: ${stateDir}
  group_wait: 0s      # these tests follow single alerts, not grouping delays
  group_interval: 0s
  retry: { initial_backoff: 20ms, max_backoff: 50ms }
  rules: { AvalancheNodeUnhealthy: { for: 0s }, AvalancheHealthCheckFailing: { enabled: false } }
  receivers: [{ name: hook, type: webhook, url: "${hook.url}/hook" }]
`).alerts!;
    const clock = new ManualClock();
    const alerting = new AlertPlane(config, pino({ level: 'silent' }), undefined, { clock });
    cleanups.push(async () => {
      await alerting.stop(0);
      await hook.close();
    });
    const attempts: Array<{ request: RecordedRequest; atMs: number }> = [];
    hook.respond = (request) => {
      attempts.push({ request, atMs: clock.now() });
      return attempts.length === 1 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 };
    };
    const retried = () =>
      alerting.deliverySamples().find((sample) => sample.name === 'avaxmon_notifications_total' && sample.labels.outcome === 'retried')
        ?.value;
    const startMs = clock.now();
    alerting.evaluate(samples(0));
    await until(() => retried() === 1);
    await clock.advance(1_999);
    expect(attempts).toHaveLength(1);
    await clock.advance(1);
    await hook.waitFor(1);
    expect(attempts.map((attempt) => attempt.atMs - startMs)).toEqual([0, 2_000]);
    // The resolve queued after a delivered firing follows it, in order.
    await clock.advance(1_000);
    alerting.evaluate(samples(1));
    await hook.waitFor(2);
    expect(attempts.map(({ request }) => (request.json as { status: string }).status)).toEqual(['firing', 'firing', 'resolved']);
    expect(attempts[0].request.headers['idempotency-key']).toBe(attempts[1].request.headers['idempotency-key']);
  });
});

describe('delivered-keys journal', () => {
  it('forgets keys older than 24h and compacts the journal while running, still suppressing recent keys', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-journal-'));
    const outbox = new Outbox(stateDir, pino({ level: 'silent' }));
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const notification = (key: string) => ({
      receiver: 'hook',
      fingerprint: key,
      key,
      reminder: false,
      alert: {
        fingerprint: key,
        status: 'firing' as const,
        labels: { alertname: 'X' },
        annotations: {},
        startsAt: new Date(t0).toISOString(),
      },
    });
    const deliver = (key: string, nowMs: number) => {
      for (const entry of outbox.enqueue([notification(key)], nowMs)) outbox.remove(entry, true, nowMs);
    };
    for (let i = 0; i < 100; i++) deliver(`old-${i}`, t0 + i);
    const lines = () => readFileSync(join(stateDir, 'delivered.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    expect(lines()).toBe(100);
    const later = t0 + 25 * 3_600_000;
    for (let i = 0; i < 10; i++) deliver(`new-${i}`, later + i);
    expect(lines()).toBe(10);
    // A recent key is still remembered (not queued again); an expired one is not.
    expect(outbox.enqueue([notification('new-3')], later + 100)).toHaveLength(0);
    expect(outbox.enqueue([notification('old-3')], later + 100)).toHaveLength(1);
  });
});

describe('a crash between queuing a resolve and saving the state', () => {
  it('never sends the firing that the queued resolve says is over, whatever the restored state says', async () => {
    const { hook, stateDir, config } = await restartStack();
    const clock = new ManualClock();
    // The state is evaluation's alerts.json and the notification log, which says the alert was notified.
    const stateFiles = ['alerts.json', 'nflog.json'];
    let stateWhileFiring: Buffer[] = [];
    await firingRefusedThenResolved(config, clock, hook, () => {
      stateWhileFiring = stateFiles.map((file) => readFileSync(join(stateDir, file)));
    });
    // As if killed once the resolve was in the outbox but before the state saying so was written.
    for (const [index, file] of stateFiles.entries()) writeFileSync(join(stateDir, file), stateWhileFiring[index]);

    // The receiver asked for 60 s before the next try.
    expect(await restartAndDeliver(config, clock, hook, 60_000)).toEqual(['resolved']);
  });
});

describe('a restart right after a firing was tried and the alert resolved', () => {
  it('sends the resolve: the receiver may have been paged by the try, and must not be left with an open page', async () => {
    const { hook, config } = await restartStack();
    const clock = new ManualClock();
    await firingRefusedThenResolved(config, clock, hook);
    // Restarted within the second: the firing is not yet overdue by the clock, and its try is forgotten.
    expect(await restartAndDeliver(config, clock, hook, 500)).toEqual(['resolved']);
  });
});

/** A webhook receiver and an alerts config whose AvalancheNodeUnhealthy fires at once, in a fresh state_dir. */
async function restartStack() {
  const hook = await startRecorder();
  cleanups.push(() => hook.close());
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-delivery-'));
  const config = parseConfig(`alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  group_interval: 0s
  rules: { AvalancheNodeUnhealthy: { for: 0s }, AvalancheHealthCheckFailing: { enabled: false } }
  receivers: [{ name: hook, type: webhook, url: "${hook.url}/hook" }]
`).alerts!;
  return { hook, stateDir, config };
}

/**
 * A first alert plane whose firing the receiver refuses (503, Retry-After 60 s), then sees the alert
 * resolve and stops; `whileFiring` runs between the refusal and the resolve.
 */
async function firingRefusedThenResolved(config: AlertsConfig, clock: ManualClock, hook: Recorder, whileFiring = () => {}): Promise<void> {
  hook.respond = () => ({ status: 503, headers: { 'retry-after': '60' } });
  const first = new AlertPlane(config, pino({ level: 'silent' }), undefined, { clock });
  first.evaluate(samples(0));
  await until(() => outcomeCount(first, 'retried') === 1);
  whileFiring();
  first.evaluate(samples(1));
  await first.stop(0);
}

/** A second alert plane on the same state_dir, its receiver now accepting: the statuses it sends within `advanceMs`. */
async function restartAndDeliver(config: AlertsConfig, clock: ManualClock, hook: Recorder, advanceMs: number): Promise<string[]> {
  hook.respond = () => ({ status: 200 });
  const second = new AlertPlane(config, pino({ level: 'silent' }), undefined, { clock });
  cleanups.push(() => second.stop(0));
  await clock.advance(advanceMs);
  await until(() => second.deliverySamples().some((sample) => sample.name === 'avaxmon_notification_queue_depth' && sample.value === 0));
  return hook.requests.map((request) => (request.json as { status: string }).status);
}

const samples = (healthy: number): Sample[] => [
  { name: 'avaxmon_target_up', labels: { target: 'v' }, value: 1 },
  { name: 'avaxmon_node_healthy', labels: { target: 'v' }, value: healthy },
];

function outcomeCount(alerting: AlertPlane, outcome: string): number | undefined {
  return alerting.deliverySamples().find((sample) => sample.name === 'avaxmon_notifications_total' && sample.labels.outcome === outcome)
    ?.value;
}
