import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';

const up = (target: string, value = 1): Sample => ({ name: 'avaxmon_target_up', labels: { target }, value });
const healthy = (target: string, value = 1): Sample => ({ name: 'avaxmon_node_healthy', labels: { target }, value });

/** What the alert sweep asks the snapshot: whether a target's samples of some families changed since a version. */
describe('MetricsSnapshot.changedSince', () => {
  it('moves with the lines of those families of that target only', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/health', [up('a'), healthy('a')]);
    snapshot.setSlice('b/health', [up('b'), healthy('b')]);
    const read = snapshot.currentVersion;
    expect(snapshot.changedSince('a', ['avaxmon_node_healthy'])).toBeLessThanOrEqual(read);

    snapshot.setSlice('a/health', [up('a'), healthy('a')]);
    snapshot.setSlice('b/health', [up('b'), healthy('b', 0)]);
    snapshot.setSlice('a/health', [up('a', 0), healthy('a')]);
    // The same lines again, another target, another family: not a change of a's health.
    expect(snapshot.changedSince('a', ['avaxmon_node_healthy'])).toBeLessThanOrEqual(read);
    expect(snapshot.changedSince('a', ['avaxmon_target_up'])).toBeGreaterThan(read);
    expect(snapshot.changedSince('b', ['avaxmon_node_healthy'])).toBeGreaterThan(read);
  });

  it('counts a family that went, and reads as changed for a target forgotten and back', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/up', [up('a')]);
    snapshot.setSlice('a/health', [healthy('a')]);
    const read = snapshot.currentVersion;
    snapshot.setSlice('a/health', []);
    expect(snapshot.changedSince('a', ['avaxmon_node_healthy'])).toBeGreaterThan(read);

    const later = snapshot.currentVersion;
    snapshot.setSlice('a/up', []);
    // No slice holds the target: whatever is asked of it has changed.
    expect(snapshot.changedSince('a', ['avaxmon_node_healthy'])).toBeGreaterThan(later);
    snapshot.setSlice('a/up', [up('a')]);
    // Back with its up series only: its health, gone meanwhile, reads as changed since before it went.
    expect(snapshot.changedSince('a', ['avaxmon_node_healthy'])).toBeGreaterThan(later);
  });
});
