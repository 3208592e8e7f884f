import { describe, expect, it } from 'vitest';
import {
  BUSY_HEAP_GROWTH_PERCENT,
  BUSY_UTILIZATION,
  HEAP_GROWTH_PERIOD_MS,
  HeapGrowth,
  RELAXED_HEAP_GROWTH_PERCENT,
} from '../../src/runtime/heap-growth.js';
import { ManualClock } from '../helpers/manual-clock.js';

/** A HeapGrowth fed the utilization the test sets before each second, recording what it applies. */
function governed() {
  const clock = new ManualClock();
  const applied: number[] = [];
  let busy = 0;
  const growth = new HeapGrowth({ clock, utilization: () => busy, apply: (percent) => applied.push(percent) });
  growth.start();
  const seconds = async (count: number, utilization: number) => {
    busy = utilization;
    for (let second = 0; second < count; second++) await clock.advance(HEAP_GROWTH_PERIOD_MS);
  };
  return { growth, applied, seconds };
}

describe('HeapGrowth', () => {
  it('starts at the busy growth and relaxes once the loop has had room for several seconds', async () => {
    const { growth, applied, seconds } = governed();
    expect(growth.current).toBe(BUSY_HEAP_GROWTH_PERCENT);
    await seconds(3, 0.3);
    // A few quiet seconds do not yet relax it: the reading is smoothed over about a minute.
    expect(applied).toEqual([]);
    await seconds(30, 0.3);
    expect(applied).toEqual([RELAXED_HEAP_GROWTH_PERCENT]);
    expect(growth.current).toBe(RELAXED_HEAP_GROWTH_PERCENT);
  });

  it('goes back to the busy growth while the loop stays busy, and does not flap on single busy seconds', async () => {
    const { applied, seconds } = governed();
    await seconds(20, 0.2);
    expect(applied).toEqual([RELAXED_HEAP_GROWTH_PERCENT]);
    for (let round = 0; round < 10; round++) {
      await seconds(1, 1);
      await seconds(4, 0.2);
    }
    expect(applied).toEqual([RELAXED_HEAP_GROWTH_PERCENT]);
    // Ten quiet seconds in a busy minute do not flap it either.
    await seconds(60, 0.9);
    await seconds(10, 0.3);
    await seconds(10, 0.9);
    expect(applied).toEqual([RELAXED_HEAP_GROWTH_PERCENT, BUSY_HEAP_GROWTH_PERCENT]);
    // Between the thresholds it holds.
    await seconds(30, (BUSY_UTILIZATION + 0.5) / 2);
    expect(applied).toEqual([RELAXED_HEAP_GROWTH_PERCENT, BUSY_HEAP_GROWTH_PERCENT]);
  });

  it('stops adjusting once stopped', async () => {
    const { growth, applied, seconds } = governed();
    growth.stop();
    await seconds(30, 0);
    expect(applied).toEqual([]);
  });
});
