import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { Scheduler } from '../src/scheduler.js';
import { captureStream } from './helpers/stack.js';

describe('Scheduler', () => {
  it('never overlaps runs of one job, even when a run outlasts the interval', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const scheduler = new Scheduler(createLogger('error', 'json', captureStream([])), { jitterRatio: 0 });
    await scheduler.start([
      {
        id: 'slow',
        intervalMs: 1000,
        async run() {
          running++;
          runs++;
          maxRunning = Math.max(maxRunning, running);
          await new Promise((resolve) => setTimeout(resolve, 2500));
          running--;
        },
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await scheduler.stop();
    expect(maxRunning).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(running).toBe(0);
  });

  it('runs each job on its own interval', async () => {
    const counts = { fast: 0, slow: 0 };
    const scheduler = new Scheduler(createLogger('error', 'json', captureStream([])), { jitterRatio: 0 });
    await scheduler.start([
      { id: 'fast', intervalMs: 1000, run: async () => void counts.fast++ },
      { id: 'slow', intervalMs: 10_000, run: async () => void counts.slow++ },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 3200));
    await scheduler.stop();
    expect(counts.fast).toBeGreaterThanOrEqual(3);
    expect(counts.slow).toBe(1);
  });
});

describe('Scheduler jitter', () => {
  it('spreads the first runs of 100 targets over seconds, not one tick', async () => {
    const startedAt = Date.now();
    const firstRuns: number[] = [];
    const scheduler = new Scheduler(createLogger('error', 'json', captureStream([])), { jitterRatio: 1 });
    await scheduler.start(
      Array.from({ length: 100 }, (_, index) => ({
        id: `validator-${index}/health`,
        intervalMs: 15_000,
        run: async () => void firstRuns.push(Date.now() - startedAt),
      })),
    );
    await scheduler.stop();
    expect(firstRuns).toHaveLength(100);
    expect(Math.max(...firstRuns) - Math.min(...firstRuns)).toBeGreaterThan(3000);
    expect(new Set(firstRuns.map((ms) => Math.floor(ms / 250))).size).toBeGreaterThan(12);
  });
});

describe('Scheduler at fleet scale', () => {
  const quiet = () => createLogger('error', 'json', captureStream([]));

  it('spreads each job over its whole interval after the first round, at a stable phase', async () => {
    const intervalMs = 2000;
    const ticks = new Map<string, number[]>();
    const scheduler = new Scheduler(quiet(), { jitterRatio: 1 });
    const jobs = Array.from({ length: 40 }, (_, index) => ({
      id: `node-${index}/health`,
      intervalMs,
      run: async () => void ticks.set(`node-${index}/health`, [...(ticks.get(`node-${index}/health`) ?? []), Date.now()]),
    }));
    await scheduler.start(jobs);
    await new Promise((resolve) => setTimeout(resolve, 3 * intervalMs + 200));
    await scheduler.stop();
    const phases = jobs.map((job) => ticks.get(job.id)!.slice(1).map((at) => at % intervalMs));
    for (const jobPhases of phases) expect(jobPhases.length).toBeGreaterThanOrEqual(2);
    // Each job keeps its phase from tick to tick ...
    for (const jobPhases of phases) expect(Math.max(...jobPhases) - Math.min(...jobPhases)).toBeLessThan(150);
    // ... and the phases cover the interval: at least 6 of its 8 quarter-second buckets hold a job.
    expect(new Set(phases.map((jobPhases) => Math.floor(jobPhases[0] / 250))).size).toBeGreaterThanOrEqual(6);
  });

  it('counts ticks skipped while the previous run is still in flight', async () => {
    let skipped = 0;
    let release!: () => void;
    const scheduler = new Scheduler(quiet(), { jitterRatio: 0 });
    const job = { id: 'slow', intervalMs: 60_000, run: () => new Promise<void>((resolve) => (release = resolve)), skipped: () => void skipped++ };
    const first = scheduler.trigger(job);
    void scheduler.trigger(job);
    void scheduler.trigger(job);
    expect(skipped).toBe(2);
    release();
    await first;
    await scheduler.stop();
  });

  it('abandons a run that ignores its abort, so the next run starts and stop() returns', async () => {
    const abandoned: number[] = [];
    let runs = 0;
    const scheduler = new Scheduler(quiet(), { jitterRatio: 0 });
    const job = {
      id: 'hung',
      intervalMs: 1000,
      run: () => {
        runs++;
        return new Promise<void>(() => {}); // never ends, whatever the signal says
      },
      abandoned: (elapsedMs: number) => void abandoned.push(elapsedMs),
    };
    await scheduler.trigger(job); // resolves once abandoned: deadline (1 s) + grace
    expect(abandoned).toHaveLength(1);
    expect(abandoned[0]).toBeGreaterThanOrEqual(1000);
    void scheduler.trigger(job);
    expect(runs).toBe(2);
    const stopping = Date.now();
    await scheduler.stop({ graceMs: 100 });
    expect(Date.now() - stopping).toBeLessThan(100 + 2000 + 500);
    expect(abandoned).toHaveLength(2);
  });

  it('caps concurrent runs overall and per origin', async () => {
    let running = 0;
    let maxRunning = 0;
    const perOrigin = new Map<string, number>();
    let maxPerOrigin = 0;
    const scheduler = new Scheduler(quiet(), { jitterRatio: 0, maxConcurrent: 5, maxConcurrentPerOrigin: 2 });
    const jobs = Array.from({ length: 30 }, (_, index) => {
      const origin = `http://node-${index % 3}`;
      return {
        id: `job-${index}`,
        intervalMs: 60_000,
        origin,
        run: async () => {
          running++;
          perOrigin.set(origin, (perOrigin.get(origin) ?? 0) + 1);
          maxRunning = Math.max(maxRunning, running);
          maxPerOrigin = Math.max(maxPerOrigin, perOrigin.get(origin)!);
          await new Promise((resolve) => setTimeout(resolve, 20));
          perOrigin.set(origin, perOrigin.get(origin)! - 1);
          running--;
        },
      };
    });
    await Promise.all(jobs.map((job) => scheduler.trigger(job)));
    await scheduler.stop();
    expect(maxPerOrigin).toBe(2);
    expect(maxRunning).toBeLessThanOrEqual(5);
    expect(maxRunning).toBeGreaterThanOrEqual(3);
  });
});
