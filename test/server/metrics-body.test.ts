import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { MetricsBody } from '../../src/server/metrics-body.js';

describe('the /metrics body', () => {
  it('hands scrapers that come at once one joined plain body, not a 21 MB copy each', async () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/peers', [{ name: 'avaxmon_node_peers', labels: { target: 'a' }, value: 5 }]);
    const body = new MetricsBody(snapshot);
    const nowMs = Date.now();
    // The process metrics are rendered once a second; the first scrape renders them.
    await body.get('text', false, nowMs);
    const [first, ...others] = await Promise.all(Array.from({ length: 20 }, () => body.get('text', false, nowMs)));
    for (const other of others) expect(other).toBe(first);
    const text = first.toString();
    expect(text).toContain('avaxmon_node_peers{target="a"} 5\n');
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});
