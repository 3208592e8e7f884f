import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EvaluationSchedule } from '../../src/alerts/evaluation-schedule.js';
import { parseConfig } from '../../src/config/load.js';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { health, silentLog } from './harness.js';

const targets = (count: number) => Array.from({ length: count }, (_, index) => `node-${index}`);
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/**
 * What no collector run triggers is left to the sweep: here, AvalancheNodeUnhealthy's `for` ending
 * while no run of the target comes. Each target is swept once every 10 s, a share of the fleet at
 * each 1 s tick, never the whole fleet at once (200 ms of event loop at 1,000 nodes).
 */
describe('the sweep', () => {
  // 600 targets: a tick's share of 60 is evaluated in three pieces of at most 25, each in its turn.
  it.each([20, 600])('covers every target of %i every 10 s, a tenth of the fleet at each tick', async (count) => {
    const TARGETS = targets(count);
    const clock = new ManualClock();
    const snapshot = new MetricsSnapshot(allMetrics, { clock });
    const alerts = new EvaluationSchedule(silentLog, snapshot, { clock });
    stops.push(() => alerts.stop());
    await alerts.configure(
      parseConfig(`alerts:
  state_dir: ${mkdtempSync(join(tmpdir(), 'avaxmon-sweep-'))}
  rules: { AvalancheNodeUnhealthy: { for: 35s }, AvalancheHealthCheckFailing: { enabled: false } }
`).alerts,
    );
    for (const target of TARGETS) snapshot.setSlice(`${target}/health`, health(0, target));
    alerts.startEvaluating();
    const firing = () => alerts.current!.activeAlerts().filter((alert) => alert.state === 'firing').length;
    expect(alerts.current!.activeAlerts()).toHaveLength(TARGETS.length);
    expect(firing()).toBe(0);

    await clock.advance(30_000);
    const perTick: number[] = [];
    for (let tick = 0; tick < 15; tick++) {
      const before = firing();
      await clock.advance(1_000);
      perTick.push(firing() - before);
    }
    // `for` ended at 35 s: each target fires at its first sweep after that, by 45 s.
    expect(firing()).toBe(TARGETS.length);
    expect(Math.max(...perTick)).toBe(TARGETS.length / 10);
  });
});
