import { describe, expect, it } from 'vitest';
import { SelfMetrics } from '../../src/metrics/self-metrics.js';

describe('SelfMetrics status and runs', () => {
  it('keeps what every run moves out of the status, so a target that keeps succeeding has the same status', () => {
    const self = new SelfMetrics({ version: 'test', revision: 'test' });
    const run = (nowSeconds: number, success = true) =>
      self.recordRun('node-1', 'health', { success, durationSeconds: nowSeconds / 1000, nowSeconds, intervalSeconds: 15 });
    run(100);
    const status = self.statusSamples('node-1');
    const runs = self.runSamples('node-1');
    run(115);
    expect(self.statusSamples('node-1')).toEqual(status);
    expect(self.runSamples('node-1')).not.toEqual(runs);
    expect(self.runSamples('node-1').map((sample) => sample.name)).toEqual([
      'avaxmon_collector_duration_seconds',
      'avaxmon_collector_last_success_timestamp_seconds',
    ]);
    // A failure moves the status, which the alert engine reads; every series is still in samples().
    run(130, false);
    expect(self.statusSamples('node-1')).not.toEqual(status);
    const names = new Set(self.samples().map((sample) => sample.name));
    for (const name of [
      'avaxmon_collector_success',
      'avaxmon_collector_duration_seconds',
      'avaxmon_collector_last_success_timestamp_seconds',
    ])
      expect(names).toContain(name);
  });
});
