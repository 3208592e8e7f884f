import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';

const peers = (target: string, value: number) => [{ name: 'avaxmon_node_peers', labels: { target }, value }];

describe('MetricsSnapshot', () => {
  it('serves the same pre-rendered buffer until a slice changes', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/peers', peers('a', 5));
    const first = snapshot.body('text', false);
    expect(snapshot.body('text', false)).toBe(first);
    expect(snapshot.body('text', true)).toBe(snapshot.body('text', true));
    snapshot.setSlice('a/peers', peers('a', 6));
    expect(snapshot.body('text', false)).not.toBe(first);
  });

  it('groups slices under one HELP/TYPE header per family and replaces slices whole', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/peers', peers('a', 5));
    snapshot.setSlice('b/peers', peers('b', 7));
    const text = snapshot.body('text', false).toString();
    expect(text.match(/# TYPE avaxmon_node_peers gauge/g)).toHaveLength(1);
    expect(text).toContain('avaxmon_node_peers{target="a"} 5\navaxmon_node_peers{target="b"} 7\n');
    snapshot.setSlice('a/peers', []);
    expect(snapshot.body('text', false).toString()).not.toContain('target="a"');
  });

  it('renders OpenMetrics counter families without _total and gzips on request', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('self', [{ name: 'avaxmon_rpc_requests_total', labels: { target: 'a', method: 'info.peers', outcome: 'success' }, value: 3 }]);
    const openmetrics = snapshot.body('openmetrics', false).toString();
    expect(openmetrics).toContain('# TYPE avaxmon_rpc_requests counter\n');
    expect(openmetrics).toContain('avaxmon_rpc_requests_total{target="a",method="info.peers",outcome="success"} 3\n');
    expect(gunzipSync(snapshot.body('openmetrics', true)).toString()).toBe(openmetrics);
  });

  it('escapes label values', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('x', [{ name: 'avaxmon_health_check_passing', labels: { target: 'a', check: 'odd "name"\\ with\nnewline' }, value: 0 }]);
    expect(snapshot.body('text', false).toString()).toContain('check="odd \\"name\\"\\\\ with\\nnewline"');
  });
});
