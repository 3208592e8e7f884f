import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../src/alerts/evaluation/alert-record.js';
import { AlertEngine } from '../../src/alerts/evaluation/engine.js';
import { parseConfig } from '../../src/config/load.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { silentLog } from './harness.js';
import { noDispatch } from './no-dispatch.js';

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
    const saves: Array<readonly AlertRecord[]> = [];
    const engine = new AlertEngine(parseConfig('alerts: {}').alerts!, {
      log: silentLog,
      consumer: noDispatch,
      save: (alerts) => saves.push(alerts),
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
