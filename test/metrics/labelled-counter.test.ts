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

  it('counts under one label and under two, in the order the values first came', () => {
    const held = new LabelledCounter('avaxmon_alert_notifications_held_total', ['rule']);
    held.add({ rule: 'b' });
    held.add({ rule: 'a' }, 3);
    held.add({ rule: 'b' }, 2);
    expect(held.samples()).toEqual([
      { name: 'avaxmon_alert_notifications_held_total', labels: { rule: 'b' }, value: 3 },
      { name: 'avaxmon_alert_notifications_held_total', labels: { rule: 'a' }, value: 3 },
    ]);
    const notifications = new LabelledCounter('avaxmon_notifications_total', ['receiver', 'outcome']);
    notifications.add({ receiver: 'pager', outcome: 'success' });
    notifications.add({ receiver: 'hook', outcome: 'failure' });
    notifications.add({ receiver: 'pager', outcome: 'failure' });
    notifications.add({ receiver: 'pager', outcome: 'success' });
    expect(notifications.samples().map(({ labels, value }) => [labels.receiver, labels.outcome, value])).toEqual([
      ['pager', 'success', 2],
      ['pager', 'failure', 1],
      ['hook', 'failure', 1],
    ]);
  });

  it('writes its counts to a sink with one labels object written over, as samples() gives them', () => {
    const counter = new LabelledCounter('avaxmon_rpc_requests_total', ['target', 'method', 'outcome']);
    counter.add({ target: 'node-1', method: 'info.peers', outcome: 'success' }, 4);
    counter.add({ target: 'node-1', method: 'health.health', outcome: 'timeout' });
    const seen: Array<[string, string, number]> = [];
    const objects = new Set<object>();
    counter.write({
      line(_name, labels, value) {
        objects.add(labels);
        seen.push([labels.method, labels.outcome, value]);
      },
    });
    expect(seen).toEqual([
      ['info.peers', 'success', 4],
      ['health.health', 'timeout', 1],
    ]);
    expect(objects.size).toBe(1);
    expect(counter.samples().map((sample) => sample.labels.method)).toEqual(['info.peers', 'health.health']);
  });
});
