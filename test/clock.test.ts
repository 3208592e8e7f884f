import { describe, expect, it } from 'vitest';
import { every, sleep, SteadyClock, type Clock } from '../src/schedule/clock.js';
import { ManualClock } from './helpers/manual-clock.js';

describe('clock helpers on a manual clock', () => {
  it('every() calls back once per interval until stopped', async () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    const calls: number[] = [];
    const stop = every(clock, 1000, () => void calls.push(clock.now() - t0));
    await clock.advance(3500);
    expect(calls).toEqual([1000, 2000, 3000]);
    stop();
    await clock.advance(5000);
    expect(calls).toEqual([1000, 2000, 3000]);
    expect(clock.nextDueMs()).toBeUndefined();
  });

  it('sleep() resolves when its delay has passed, not before', async () => {
    const clock = new ManualClock();
    let woke = false;
    void sleep(clock, 250).then(() => (woke = true));
    await clock.advance(249);
    expect(woke).toBe(false);
    await clock.advance(1);
    expect(woke).toBe(true);
  });
});

describe('SteadyClock', () => {
  /** A wall clock a test steps, beside a monotonic one it moves. */
  const clocks = () => {
    const time = { wallMs: Date.parse('2026-01-01T00:00:00Z'), monotonicMs: 5_000 };
    const clock: Clock = {
      now: () => time.wallMs,
      monotonicMs: () => time.monotonicMs,
      setTimeout: () => ({ unref: () => undefined }),
      clearTimeout: () => undefined,
    };
    return { time, steady: new SteadyClock(clock) };
  };

  it('reads as the wall clock at start, moves with the monotonic one, and ignores a step of the wall clock', () => {
    const { time, steady } = clocks();
    const start = steady.now();
    expect(start).toBe(time.wallMs);
    time.monotonicMs += 20_000;
    time.wallMs += 20_000 - 2 * 3_600_000; // 20 s on, and stepped back 2 hours
    expect(steady.now() - start).toBe(20_000);
    expect(steady.wallOffsetMs()).toBe(-2 * 3_600_000);
  });

  it('takes a millisecond of jitter between the two for no step', () => {
    const { time, steady } = clocks();
    time.monotonicMs += 60_000.4;
    time.wallMs += 60_001;
    expect(steady.wallOffsetMs()).toBe(0);
  });
});
