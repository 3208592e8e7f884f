import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { RUN_FAMILIES } from '../../src/metrics/self-metrics.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';

const success = (target: string, seconds: number): Sample => ({
  name: 'avaxmon_collector_last_success_timestamp_seconds',
  labels: { target, collector: 'health' },
  value: seconds,
});

/** A target's run series are set when read, not after each run: a scrape, a rule, never sees them older than the last run. */
describe('a deferred slice', () => {
  it('is produced once when next read, from its last deferral', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    let produced = 0;
    const defer = (seconds: number) =>
      snapshot.deferSlice('~runs/a', 'a', RUN_FAMILIES, () => {
        produced += 1;
        return [success('a', seconds)];
      });
    defer(100);
    defer(200);
    expect(produced).toBe(0);
    expect(snapshot.body('text', false).toString()).toContain(
      'avaxmon_collector_last_success_timestamp_seconds{target="a",collector="health"} 200\n',
    );
    expect(produced).toBe(1);
    defer(300);
    expect(snapshot.targets()).toEqual(['a']);
    // What another family's reader asks cannot be in it: it is not produced for them.
    expect(snapshot.samplesOf('a', new Set(['avaxmon_node_healthy']))).toEqual([]);
    expect(snapshot.changedSince('a', ['avaxmon_node_healthy'])).toBeLessThanOrEqual(snapshot.currentVersion);
    expect(produced).toBe(1);
    expect(snapshot.samplesOf('a', new Set(['avaxmon_collector_last_success_timestamp_seconds']))).toEqual([success('a', 300)]);
    expect(produced).toBe(2);
    defer(400);
    expect(snapshot.body('openmetrics', false).toString()).toContain('} 400\n');
    defer(500);
    expect(snapshot.samples()).toEqual([success('a', 500)]);
    expect(produced).toBe(4);
  });

  it('is dropped by a slice set meanwhile, and may hold only the families it declared', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.deferSlice('~runs/a', 'a', RUN_FAMILIES, () => [success('a', 100)]);
    // Its target counts before it is produced.
    expect(snapshot.targets()).toEqual(['a']);
    snapshot.setSlice('~runs/a', []);
    expect(snapshot.samples()).toEqual([]);
    snapshot.deferSlice('~runs/a', 'a', RUN_FAMILIES, () => [{ name: 'avaxmon_node_healthy', labels: { target: 'a' }, value: 1 }]);
    expect(() => snapshot.samplesOf('a')).toThrow(/avaxmon_node_healthy, not declared/);
  });
});
