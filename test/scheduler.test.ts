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
