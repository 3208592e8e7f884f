import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AlertEngine } from '../../src/alerts/evaluation/engine.js';
import { parseConfig } from '../../src/config/load.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { until } from '../helpers/until.js';
import { drained, type Harness, health, sec, silentLog, startAlerting } from './harness.js';
import { noDispatch } from './no-dispatch.js';
import { statuses } from './recorder.js';

const T0 = Date.parse('2026-11-25T00:00:00Z');
const MINUTE = 60_000;

/** A validation ending in three days that will not renew: AvalancheStakeExpiring fires (info) at once. */
const endingSoon: Sample[] = [
  { name: 'avaxmon_target_up', labels: { target: 'node-a' }, value: 1 },
  {
    name: 'avaxmon_validator_end_timestamp_seconds',
    labels: { target: 'node-a', subnet: 'primary', node_id: 'NodeID-A' },
    value: T0 / 1000 + 3 * 86_400,
  },
];

/**
 * The alert state is written (all alerts, with fsync) after an evaluation that changed it. An
 * annotation that states a remaining time changes at every evaluation; rewriting the whole fleet's
 * state for that on every collector run is what a large fleet cannot afford.
 */
describe('alert state saves', () => {
  it('saves when an alert starts firing, not when only its texts move on', () => {
    const saves: boolean[] = [];
    const engine = new AlertEngine(parseConfig('alerts: {}').alerts!, {
      log: silentLog,
      consumer: noDispatch,
      save: (queued) => saves.push(queued),
    });
    engine.evaluate(endingSoon, T0);
    expect(engine.active().map((alert) => [alert.rule, alert.state])).toEqual([['AvalancheStakeExpiring', 'firing']]);
    const savesWhenFiring = saves.length;
    expect(savesWhenFiring).toBeGreaterThan(0);
    const firstText = engine.active()[0]!.annotations.summary;

    for (let minute = 1; minute <= 90; minute++) engine.evaluate(endingSoon, T0 + minute * MINUTE);

    expect(engine.active()[0]!.annotations.summary).not.toBe(firstText);
    expect(saves.length).toBe(savesWhenFiring);
  });
});

const UNHEALTHY = `  rules:
    AvalancheNodeUnhealthy: { for: 0s, severity: warning }
    AvalancheHealthCheckFailing: { enabled: false }`;
const CHECK_FAILING = `  rules:
    AvalancheNodeUnhealthy: { enabled: false }
    AvalancheHealthCheckFailing: { for: 1m }`;

describe('the alert plane writes its state files', () => {
  it('not at all while evaluations change nothing, however many there are', async () => {
    const harness = await startAlerting(UNHEALTHY);
    try {
      harness.alerting.evaluate(health(0), sec(0));
      await drained(harness.alerting);
      expect(statuses(harness.hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
      await until(() => existsSync(stateFile(harness, 'alerts.json')) && existsSync(stateFile(harness, 'nflog.json')));
      await harness.alerting.stop(0);
      const written = inodes(harness);

      const again = await startAlerting(UNHEALTHY, '', harness.stateDir);
      try {
        // The first evaluation after the start renders the restored alert's texts again: they are not state.
        for (let second = 1; second <= 200; second++) again.alerting.evaluate(health(0), sec(second));
        await again.alerting.stop(0);
        expect(again.hook.requests).toHaveLength(0);
        expect(inodes(again)).toEqual(written);
      } finally {
        await again.close();
      }
    } finally {
      await harness.close();
    }
  });

  it('a change that queued no notification in the background, after the evaluation returned', async () => {
    const harness = await startAlerting(CHECK_FAILING);
    try {
      // The health check fails: AvalancheHealthCheckFailing opens pending (for: 1m); nothing is sent.
      harness.alerting.evaluate(
        [...health(1), { name: 'avaxmon_health_check_passing', labels: { target: 'validator-1', check: 'bootstrapped' }, value: 0 }],
        sec(0),
      );
      expect(existsSync(stateFile(harness, 'alerts.json'))).toBe(false);
      await until(() => existsSync(stateFile(harness, 'alerts.json')));
      const [alert] = JSON.parse(readFileSync(stateFile(harness, 'alerts.json'), 'utf8')).alerts;
      expect([alert.rule, alert.state]).toEqual(['AvalancheHealthCheckFailing', 'pending']);
      expect(harness.hook.requests).toHaveLength(0);
    } finally {
      await harness.close();
    }
  });
});

const stateFile = (harness: Harness, name: string) => join(harness.stateDir, name);
const inodes = (harness: Harness) => ['alerts.json', 'nflog.json'].map((name) => statSync(stateFile(harness, name)).ino);
