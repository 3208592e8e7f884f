import { describe, expect, it } from 'vitest';
import { KeptSamples } from '../../src/metrics/kept-samples.js';
import type { Sample } from '../../src/metrics/metric-desc.js';

const sample = (name: string, labels: Record<string, string>, value: number): Sample => ({ name, labels, value });

describe('kept samples', () => {
  it('keep only the families asked for, and one labels object for neighbours with equal labels', () => {
    const samples = [
      sample('avaxmon_network_upgrade_activation_timestamp_seconds', { target: 'a', upgrade: 'helicon' }, 1_790_000_000),
      sample('avaxmon_network_upgrade_scheduled', { target: 'a', upgrade: 'helicon' }, 1),
      sample('avaxmon_unkept', { target: 'a' }, 7),
      sample('avaxmon_network_upgrade_activation_timestamp_seconds', { target: 'a', upgrade: 'granite' }, 1_760_000_000),
      sample('avaxmon_network_upgrade_scheduled', { upgrade: 'granite', target: 'a' }, 1),
      // Same number of labels, another name: not the same labels.
      sample('avaxmon_network_upgrade_scheduled', { target: 'a', chain: 'granite' }, 0),
      sample('avaxmon_network_upgrade_scheduled', { target: 'a' }, 0),
    ];
    const keep = new Set(['avaxmon_network_upgrade_activation_timestamp_seconds', 'avaxmon_network_upgrade_scheduled']);
    const read: Sample[] = [];
    KeptSamples.of(samples, keep).appendTo(read);
    expect(read).toEqual(samples.filter((each) => keep.has(each.name)));
    expect(read[1].labels).toBe(read[0].labels);
    expect(read[3].labels).toBe(read[2].labels);
    expect(read[2].labels).not.toBe(read[1].labels);
    expect(read[4].labels).toEqual({ target: 'a', chain: 'granite' });
    expect(read[5].labels).toEqual({ target: 'a' });
  });
});

describe('kept samples of a slice rendered again', () => {
  const keep = new Set(['avaxmon_node_healthy']);
  const run = (healthy: number, duration: number): Sample[] => [
    sample('avaxmon_node_healthy', { target: 'a' }, healthy),
    sample('avaxmon_unkept_duration_seconds', { target: 'a' }, duration),
  ];

  it('are the previous ones while the kept series are the same, their values written over', () => {
    const first = KeptSamples.of(run(1, 0.1), keep);
    expect(KeptSamples.of(run(1, 0.2), keep, first)).toBe(first);
    const moved = KeptSamples.of(run(0, 0.2), keep, first);
    expect(moved).toBe(first);
    const read: Sample[] = [];
    moved.appendTo(read);
    expect(read).toEqual([sample('avaxmon_node_healthy', { target: 'a' }, 0)]);
    // A sample more, or other labels, is not the same either.
    expect(KeptSamples.of([...run(1, 0.2), sample('avaxmon_node_healthy', { target: 'b' }, 1)], keep, first)).not.toBe(first);
    expect(KeptSamples.of([sample('avaxmon_node_healthy', { target: 'b' }, 1)], keep, first)).not.toBe(first);
    expect(KeptSamples.of([], keep, first)).toBe(KeptSamples.none);
  });

  it("keep the previous labels objects where the labels are the same, and the run's own where they moved", () => {
    const first = KeptSamples.of([...run(1, 0.1), sample('avaxmon_node_healthy', { target: 'b' }, 1)], keep);
    const before: Sample[] = [];
    first.appendTo(before);
    const next = KeptSamples.of([...run(0, 0.1), sample('avaxmon_node_healthy', { target: 'c' }, 1)], keep, first);
    const after: Sample[] = [];
    next.appendTo(after);
    expect(after).toEqual([sample('avaxmon_node_healthy', { target: 'a' }, 0), sample('avaxmon_node_healthy', { target: 'c' }, 1)]);
    expect(after[0].labels).toBe(before[0].labels);
    expect(after[1].labels).not.toBe(before[1].labels);
  });
});
