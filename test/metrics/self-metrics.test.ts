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

  it('says the status moved whenever the status samples change, and not after a run that changed no verdict', () => {
    // The daemon re-renders a target's status only when it is told it moved: a change it is not
    // told of would leave a failing collector's status, and the alert that reads it, as they were.
    const self = new SelfMetrics({ version: 'test', revision: 'test' });
    const targets = ['node-1', 'node-2'];
    const collectors = ['health', 'peers', 'validators'];
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    const operations: Array<(target: string, collector: string, nowMs: number) => void> = [
      (target, collector, nowMs) =>
        self.recordRun(target, collector, { success: random(4) > 0, durationSeconds: 0.1, nowSeconds: nowMs / 1000, intervalSeconds: 15 }),
      (target, collector) => self.recordSkipped(target, collector),
      (target, collector) => self.recordAbandoned(target, collector, 15),
      (target, _collector, nowMs) => self.recordReachability(target, random(3) > 0, 5_000, undefined, nowMs),
      (_target, collector) =>
        self.retain(
          new Set(targets),
          new Set(targets.flatMap((each) => collectors.filter((name) => name !== collector).map((name) => `${each}/${name}`))),
        ),
    ];
    const published = new Map(targets.map((target) => [target, self.statusSamples(target)]));
    let unmovedRuns = 0;
    for (let step = 0; step < 3_000; step++) {
      const target = targets[random(targets.length)];
      operations[random(10) < 7 ? 0 : 1 + random(operations.length - 1)](target, collectors[random(collectors.length)], step * 1_000);
      for (const each of targets) {
        const samples = self.statusSamples(each);
        if (!self.takeStatusMoved(each)) {
          expect(samples, `step ${step}, ${each}`).toEqual(published.get(each));
          unmovedRuns++;
        }
        published.set(each, samples);
      }
    }
    // Most steps leave most statuses as they were: not rendering those is what this spares.
    expect(unmovedRuns).toBeGreaterThan(3_000);
    self.recordRun('node-1', 'health', { success: true, durationSeconds: 0.1, nowSeconds: 1, intervalSeconds: 15 });
    self.recordRun('node-1', 'health', { success: true, durationSeconds: 0.2, nowSeconds: 2, intervalSeconds: 15 });
    self.takeStatusMoved('node-1');
    self.recordRun('node-1', 'health', { success: true, durationSeconds: 0.3, nowSeconds: 3, intervalSeconds: 15 });
    expect(self.takeStatusMoved('node-1')).toBe(false);
  });
});

describe('SelfMetrics reachability changes', () => {
  it('tells once when a target turns unreachable, with the error, and once when it answers again', () => {
    const changes: [string, boolean, unknown][] = [];
    const self = new SelfMetrics({
      version: 'test',
      revision: 'test',
      onReachabilityChange: (target, up, error) => changes.push([target, up, error]),
    });
    const refused = new Error('connect ECONNREFUSED');
    self.recordReachability('node-1', true, 5_000, undefined, 0);
    expect(changes).toEqual([]);
    // Many collectors' requests fail: one change, not one per request.
    for (let i = 0; i < 20; i++) self.recordReachability('node-1', false, 5_000, refused, 15_000 + i);
    expect(changes).toEqual([['node-1', false, refused]]);
    // A slow method within the grace of an answer is not a dead node.
    self.recordReachability('node-1', true, 5_000, undefined, 30_000);
    self.recordReachability('node-1', false, 5_000, refused, 31_000);
    expect(changes).toEqual([
      ['node-1', false, refused],
      ['node-1', true, undefined],
    ]);
  });

  it('tells a target that never answered as unreachable, and nothing for its first answer', () => {
    const changes: boolean[] = [];
    const self = new SelfMetrics({ version: 'test', revision: 'test', onReachabilityChange: (_target, up) => changes.push(up) });
    self.recordReachability('fresh', true, 5_000, undefined, 0);
    self.recordReachability('never', false, 5_000, new Error('timeout'), 0);
    expect(changes).toEqual([false]);
  });
});
