import { describe, expect, it } from 'vitest';
import { LabelledCounter } from '../../src/metrics/labelled-counter.js';

describe('a labelled counter', () => {
  it('counts each label set apart, whatever its values hold, and gives them back in label order', () => {
    const counter = new LabelledCounter('avaxmon_rpc_requests_total', ['target', 'method', 'outcome']);
    // Values a joined key would confuse: the same characters split differently between labels.
    counter.add({ outcome: 'success', method: 'a","b', target: 'node-1' });
    counter.add({ target: 'node-1', method: 'a', outcome: '","b' });
    counter.add({ target: 'node-1', method: 'a","b', outcome: 'success' }, 2);
    counter.add({ target: 'node-1', method: 'info.peers', outcome: 'timeout' }, 0);
    const samples = counter.samples();
    expect(samples).toEqual([
      { name: 'avaxmon_rpc_requests_total', labels: { target: 'node-1', method: 'a","b', outcome: 'success' }, value: 3 },
      { name: 'avaxmon_rpc_requests_total', labels: { target: 'node-1', method: 'a', outcome: '","b' }, value: 1 },
      { name: 'avaxmon_rpc_requests_total', labels: { target: 'node-1', method: 'info.peers', outcome: 'timeout' }, value: 0 },
    ]);
    expect(samples.map((sample) => Object.keys(sample.labels))).toEqual(Array(3).fill(['target', 'method', 'outcome']));
  });
});
