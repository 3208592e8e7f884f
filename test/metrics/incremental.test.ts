import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EvaluationSchedule } from '../../src/alerts/evaluation-schedule.js';
import { parseConfig } from '../../src/config/load.js';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';

/**
 * Samples whose label reads are counted per target: rendering a sample or evaluating a rule over it
 * reads its labels, so a target whose count stays 0 was neither re-rendered nor re-evaluated.
 */
function countedSamples(reads: Map<string, number>, target: string, healthy: number, peers: number): Sample[] {
  const counted = (labels: Record<string, string>) =>
    new Proxy(labels, {
      get(object, key) {
        reads.set(target, (reads.get(target) ?? 0) + 1);
        return object[key as string];
      },
      ownKeys(object) {
        reads.set(target, (reads.get(target) ?? 0) + 1);
        return Reflect.ownKeys(object);
      },
    });
  return [
    { name: 'avaxmon_node_healthy', labels: counted({ target }), value: healthy },
    { name: 'avaxmon_node_peers', labels: counted({ target }), value: peers },
  ];
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('a collector run costs its own slice, not the fleet', () => {
  it('re-renders only the slice that changed; the others are reused as they were rendered', () => {
    const reads = new Map<string, number>();
    const snapshot = new MetricsSnapshot(allMetrics);
    for (const target of ['a', 'b', 'c']) snapshot.setSlice(`${target}/health`, countedSamples(reads, target, 1, 10));
    snapshot.body('text', false);
    reads.clear();

    snapshot.setSlice('a/health', countedSamples(reads, 'a', 0, 11));
    const text = snapshot.body('text', false).toString();
    const openmetrics = snapshot.body('openmetrics', true);

    expect(reads.get('a')).toBeGreaterThan(0);
    expect(reads.get('b') ?? 0).toBe(0);
    expect(reads.get('c') ?? 0).toBe(0);
    expect(text).toContain('avaxmon_node_healthy{target="a"} 0');
    expect(text).toContain('avaxmon_node_healthy{target="b"} 1');
    expect(text).toContain('avaxmon_node_peers{target="c"} 10');
    expect(openmetrics.length).toBeGreaterThan(0);
  });

  it("keeps a slice's version while a run sets the same lines, so the daemon evaluates no rule for it", () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    expect(snapshot.sliceVersion('a/health')).toBeUndefined();
    snapshot.setSlice('a/health', countedSamples(new Map(), 'a', 1, 10));
    const first = snapshot.sliceVersion('a/health');
    expect(first).toBeDefined();

    snapshot.setSlice('b/health', countedSamples(new Map(), 'b', 1, 10));
    snapshot.setSlice('a/health', countedSamples(new Map(), 'a', 1, 10));
    expect(snapshot.sliceVersion('a/health')).toBe(first);

    snapshot.setSlice('a/health', countedSamples(new Map(), 'a', 1, 11));
    expect(snapshot.sliceVersion('a/health')).not.toBe(first);
    snapshot.setSlice('a/health', []);
    expect(snapshot.sliceVersion('a/health')).toBeUndefined();
  });

  it('evaluates only the changed target, and only rules reading the families that changed', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-incremental-'));
    const config = parseConfig(`alerts:
  state_dir: ${stateDir}
  rules: { AvalancheNodeUnhealthy: { for: 0s } }
  receivers: [{ name: hook, type: webhook, url: "http://127.0.0.1:9/hook", send_resolved: false }]
`).alerts;
    const reads = new Map<string, number>();
    const snapshot = new MetricsSnapshot(allMetrics);
    const alerts = new EvaluationSchedule(pino({ level: 'silent' }), snapshot);
    await alerts.configure(config);
    cleanups.push(() => alerts.stop());
    for (const target of ['a', 'b', 'c']) snapshot.setSlice(`${target}/health`, countedSamples(reads, target, 1, 10));
    alerts.startEvaluating();
    reads.clear();

    // A run of a's collector that changed its health family: a is evaluated, b and c are not.
    snapshot.setSlice('a/health', countedSamples(reads, 'a', 0, 10));
    alerts.afterRun('a', new Set(['avaxmon_node_healthy']));
    expect(reads.get('a')).toBeGreaterThan(0);
    expect(reads.get('b') ?? 0).toBe(0);
    expect(reads.get('c') ?? 0).toBe(0);
    const unhealthy = alerts.current!.activeAlerts().filter((alert) => alert.rule === 'AvalancheNodeUnhealthy');
    expect(unhealthy.map((alert) => alert.labels.target)).toEqual(['a']);

    // A family no rule reads evaluates nothing at all.
    reads.clear();
    alerts.afterRun('b', new Set(['avaxmon_build_info']));
    expect(reads.get('b') ?? 0).toBe(0);
  });
});
