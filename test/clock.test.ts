import { describe, expect, it } from 'vitest';
import { every, sleep } from '../src/clock.js';
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
