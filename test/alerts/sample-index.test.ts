import { describe, expect, it } from 'vitest';
import { SampleIndex } from '../../src/alerts/evaluation/sample-index.js';
import type { Sample } from '../../src/metrics/metric-desc.js';

const samples: Sample[] = ['node-a', 'node-b'].flatMap((target, index): Sample[] => [
  { name: 'avaxmon_target_up', labels: { target }, value: 1 },
  { name: 'avaxmon_chain_height', labels: { target, chain: 'X' }, value: 40 + index },
  { name: 'avaxmon_collector_success', labels: { target, collector: 'health' }, value: index },
]);

/** A family reader over `samples` that records each family it was asked for. */
function recordingReader(asked: string[]) {
  return (name: string) => {
    asked.push(name);
    return samples.filter((sample) => sample.name === name);
  };
}

describe('a sample index reading family by family', () => {
  it('answers every lookup as an index given every sample does', () => {
    const eager = new SampleIndex(samples);
    const lazy = new SampleIndex(recordingReader([]));
    for (const name of ['avaxmon_target_up', 'avaxmon_chain_height', 'avaxmon_collector_success', 'avaxmon_node_peers']) {
      expect(lazy.all(name)).toEqual(eager.all(name));
      expect(lazy.where(name, { target: 'node-b' })).toEqual(eager.where(name, { target: 'node-b' }));
      expect(lazy.valueOf(name, { target: 'node-a' })).toEqual(eager.valueOf(name, { target: 'node-a' }));
    }
  });

  it('reads a family once, at its first lookup, and never one no lookup names', () => {
    const asked: string[] = [];
    const index = new SampleIndex(recordingReader(asked));
    expect(asked).toEqual([]);
    index.all('avaxmon_target_up');
    index.where('avaxmon_target_up', { target: 'node-a' });
    index.valueOf('avaxmon_chain_height', { target: 'node-b', chain: 'X' });
    index.all('avaxmon_node_peers');
    index.all('avaxmon_node_peers');
    expect(asked).toEqual(['avaxmon_target_up', 'avaxmon_chain_height', 'avaxmon_node_peers']);
  });

  it('records a family read through the reader as read by the rule', () => {
    const index = new SampleIndex(recordingReader([]));
    index.reads = new Set();
    index.valueOf('avaxmon_chain_height', { target: 'node-a', chain: 'X' });
    expect([...index.reads]).toEqual(['avaxmon_chain_height']);
  });
});
