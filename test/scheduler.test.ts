import { describe, expect, it } from 'vitest';
import { sleep } from '../src/schedule/clock.js';
import { createLogger } from '../src/runtime/log.js';
import { ABANDON_GRACE_MS, jitterMs, Scheduler, type SchedulerOptions } from '../src/schedule/scheduler.js';
import { ManualClock, settle } from './helpers/manual-clock.js';
import { captureStream } from './helpers/stack.js';

// Every test runs on a manual clock: times are exact and nothing sleeps. The clock starts at a
// multiple of every interval used here, so phases count from it.
const quiet = () => createLogger('error', 'json', captureStream([]));

function schedulerOn(options: Omit<SchedulerOptions, 'clock'>): { scheduler: Scheduler; clock: ManualClock; t0: number } {
  const clock = new ManualClock();
  return { scheduler: new Scheduler(quiet(), { ...options, clock }), clock, t0: clock.now() };
}

describe('Scheduler', () => {
  it('never overlaps runs of one job, even when a run outlasts the interval', async () => {
    const { scheduler, clock, t0 } = schedulerOn({ jitterRatio: 0 });
    const starts: number[] = [];
    let running = 0;
    let maxRunning = 0;
    let skipped = 0;
    void scheduler.start([
      {
        id: 'slow',
        intervalMs: 1000,
        async run() {
          starts.push(clock.now() - t0);
          maxRunning = Math.max(maxRunning, ++running);
          await sleep(clock, 2500); // ignores its abort at the 1 s deadline, ends before the abandon at 3 s
          running--;
        },
        skipped: () => void skipped++,
      },
    ]);
    await clock.advance(3000);
    // The ticks at 1 s and 2 s find the first run in flight; the one at 3 s starts the second run.
    expect(starts).toEqual([0, 3000]);
    expect(skipped).toBe(2);
    expect(maxRunning).toBe(1);
    await clock.runUntil(scheduler.stop());
    expect(running).toBe(0);
  });

  it('runs each job on its own interval', async () => {
    const { scheduler, clock, t0 } = schedulerOn({ jitterRatio: 0 });
    const runs = { fast: [] as number[], slow: [] as number[] };
    void scheduler.start([
      { id: 'fast', intervalMs: 1000, run: async () => void runs.fast.push(clock.now() - t0) },
      { id: 'slow', intervalMs: 10_000, run: async () => void runs.slow.push(clock.now() - t0) },
    ]);
    await clock.advance(3200);
    expect(runs).toEqual({ fast: [0, 1000, 2000, 3000], slow: [0] });
    await clock.advance(6800);
    expect(runs.slow).toEqual([0, 10_000]);
    await scheduler.stop();
  });
});

describe('Scheduler jitter', () => {
  it('spreads the first runs of 100 targets over seconds, not one tick', async () => {
    const { scheduler, clock, t0 } = schedulerOn({ jitterRatio: 1 });
    const firstRuns: number[] = [];
    const started = scheduler.start(
      Array.from({ length: 100 }, (_, index) => ({
        id: `validator-${index}/health`,
        intervalMs: 15_000,
        run: async () => void firstRuns.push(clock.now() - t0),
      })),
    );
    // 100 jobs at 40 ms each: the first round is spread over 4 s, and is complete then.
    await clock.advance(4000);
    await started;
    expect(firstRuns).toHaveLength(100);
    expect(Math.max(...firstRuns)).toBeLessThan(4000);
    expect(Math.max(...firstRuns) - Math.min(...firstRuns)).toBeGreaterThan(3000);
    expect(new Set(firstRuns.map((ms) => Math.floor(ms / 250))).size).toBeGreaterThan(12);
    await scheduler.stop();
  });
});

describe('Scheduler at fleet scale', () => {
  it('spreads each job over its whole interval after the first round, at a stable phase', async () => {
    const intervalMs = 2000;
    const { scheduler, clock } = schedulerOn({ jitterRatio: 1 });
    const ticks = new Map<string, number[]>();
    const jobs = Array.from({ length: 40 }, (_, index) => ({
      id: `node-${index}/health`,
      intervalMs,
      run: async () => void ticks.set(`node-${index}/health`, [...(ticks.get(`node-${index}/health`) ?? []), clock.now()]),
    }));
    void scheduler.start(jobs);
    // The first round ends by 1.6 s, the periodic ticks start half an interval later: two ticks or more each.
    await clock.advance(4 * intervalMs + 200);
    await scheduler.stop();
    const phases = jobs.map((job) =>
      ticks
        .get(job.id)!
        .slice(1)
        .map((at) => at % intervalMs),
    );
    for (const jobPhases of phases) expect(jobPhases.length).toBeGreaterThanOrEqual(2);
    // Each job keeps its phase, to the millisecond, from tick to tick: the one its id hashes to ...
    for (const [index, job] of jobs.entries()) expect(new Set(phases[index])).toEqual(new Set([jitterMs(job.id, intervalMs)]));
    // ... and the phases cover the interval: at least 6 of its 8 quarter-second buckets hold a job.
    expect(new Set(phases.map((jobPhases) => Math.floor(jobPhases[0] / 250))).size).toBeGreaterThanOrEqual(6);
  });

  it('counts ticks skipped while the previous run is still in flight', async () => {
    const { scheduler } = schedulerOn({ jitterRatio: 0 });
    let skipped = 0;
    let release!: () => void;
    const job = {
      id: 'slow',
      intervalMs: 60_000,
      run: () => new Promise<void>((resolve) => (release = resolve)),
      skipped: () => void skipped++,
    };
    const first = scheduler.trigger(job);
    void scheduler.trigger(job);
    void scheduler.trigger(job);
    expect(skipped).toBe(2);
    release();
    await first;
    await scheduler.stop();
  });

  it('abandons a run that ignores its abort, so the next run starts and stop() returns', async () => {
    const { scheduler, clock } = schedulerOn({ jitterRatio: 0 });
    const abandoned: number[] = [];
    let runs = 0;
    const job = {
      id: 'hung',
      intervalMs: 1000,
      run: () => {
        runs++;
        return new Promise<void>(() => {}); // never ends, whatever the signal says
      },
      abandoned: (elapsedMs: number) => void abandoned.push(elapsedMs),
    };
    void scheduler.trigger(job);
    // Abandoned once its deadline (the 1 s interval) and the grace after it have passed, not before.
    await clock.advance(1000 + ABANDON_GRACE_MS - 1);
    expect(abandoned).toEqual([]);
    await clock.advance(1);
    expect(abandoned).toEqual([1000 + ABANDON_GRACE_MS]);
    void scheduler.trigger(job);
    expect(runs).toBe(2);
    let stopped = false;
    void scheduler.stop({ graceMs: 100 }).then(() => (stopped = true));
    // stop() waits the grace, aborts, waits ABANDON_GRACE_MS more, then abandons: bounded.
    await clock.advance(100 + ABANDON_GRACE_MS - 1);
    expect(stopped).toBe(false);
    await clock.advance(1);
    expect(stopped).toBe(true);
    expect(abandoned).toEqual([1000 + ABANDON_GRACE_MS, 100 + ABANDON_GRACE_MS]);
  });

  it('caps concurrent runs overall and per origin', async () => {
    const { scheduler, clock } = schedulerOn({ jitterRatio: 0, maxConcurrent: 5, maxConcurrentPerOrigin: 2 });
    let running = 0;
    let maxRunning = 0;
    const perOrigin = new Map<string, number>();
    let maxPerOrigin = 0;
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
          await sleep(clock, 20);
          perOrigin.set(origin, perOrigin.get(origin)! - 1);
          running--;
        },
      };
    });
    const all = Promise.all(jobs.map((job) => scheduler.trigger(job)));
    await settle();
    // Three origins at two each: six would fit the per-origin cap, the overall cap keeps it at five.
    expect(running).toBe(5);
    await clock.runUntil(all);
    await scheduler.stop();
    expect(maxPerOrigin).toBe(2);
    expect(maxRunning).toBe(5);
  });
});
