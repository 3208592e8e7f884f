import { describe, expect, it } from 'vitest';
import {
  ConcurrencyGovernor,
  GOVERN_PERIOD_MS,
  MIN_GOVERNED_CAP,
  RELAXED_UTILIZATION,
  SATURATED_UTILIZATION,
} from '../src/schedule/concurrency-governor.js';
import { ConcurrencyLimit } from '../src/schedule/concurrency-limit.js';
import { ManualClock, settle } from './helpers/manual-clock.js';

/** A governor over a cap of `ceiling`, fed the utilization the test sets before each period. */
function governed(ceiling: number) {
  const clock = new ManualClock();
  const caps: number[] = [];
  let busy = 0;
  const governor = new ConcurrencyGovernor({ setMax: (max) => caps.push(max) }, ceiling, { clock, utilization: () => busy });
  governor.start();
  const period = async (utilization: number) => {
    busy = utilization;
    await clock.advance(GOVERN_PERIOD_MS);
  };
  return { governor, caps, period };
}

describe('ConcurrencyGovernor', () => {
  it('starts at its floor and doubles the cap each relaxed second up to the configured cap (slow start)', async () => {
    const { governor, caps, period } = governed(256);
    expect(governor.current).toBe(MIN_GOVERNED_CAP);
    for (let second = 0; second < 4; second++) await period(RELAXED_UTILIZATION);
    expect(caps).toEqual([32, 64, 128, 256]);
  });

  it('ends the slow start at the first saturated second: from then on a relaxed second adds a thirty-second', async () => {
    const { governor, period } = governed(256);
    await period(SATURATED_UTILIZATION);
    expect(governor.current).toBe(MIN_GOVERNED_CAP);
    await period(0.2);
    expect(governor.current).toBe(MIN_GOVERNED_CAP + 8);
    await period(0.2);
    expect(governor.current).toBe(MIN_GOVERNED_CAP + 16);
  });

  it('ends the slow start at a second between relaxed and saturated too, holding the cap', async () => {
    const { governor, period } = governed(256);
    await period(RELAXED_UTILIZATION);
    await period((SATURATED_UTILIZATION + RELAXED_UTILIZATION) / 2);
    expect(governor.current).toBe(2 * MIN_GOVERNED_CAP);
    await period(0.2);
    expect(governor.current).toBe(2 * MIN_GOVERNED_CAP + 8);
  });

  it('narrows the cap while the event loop is saturated, down to its floor, and widens it back to the configured cap', async () => {
    const { governor, caps, period } = governed(256);
    for (let second = 0; second < 3; second++) await period(0.2);
    expect(governor.current).toBe(256);
    await period(SATURATED_UTILIZATION);
    expect(governor.current).toBe(192);
    for (let second = 0; second < 10; second++) await period(1);
    expect(governor.current).toBe(MIN_GOVERNED_CAP);
    await period((SATURATED_UTILIZATION + RELAXED_UTILIZATION) / 2);
    expect(governor.current).toBe(MIN_GOVERNED_CAP);
    await period(RELAXED_UTILIZATION);
    expect(governor.current).toBe(MIN_GOVERNED_CAP + 8);
    for (let second = 0; second < 40; second++) await period(0.2);
    expect(governor.current).toBe(256);
    // Only changes reach the cap, and it never went past the configured one.
    expect(caps.every((cap, index) => cap !== caps[index - 1] && cap <= 256 && cap >= MIN_GOVERNED_CAP)).toBe(true);
    expect(caps.at(-1)).toBe(256);
  });

  it('leaves a configured cap below its floor as it is', async () => {
    const { governor, caps, period } = governed(8);
    for (let second = 0; second < 5; second++) await period(1);
    expect(governor.current).toBe(8);
    expect(caps).toEqual([]);
  });

  it('stops adjusting once stopped', async () => {
    const { governor, period } = governed(256);
    governor.stop();
    await period(0.2);
    expect(governor.current).toBe(MIN_GOVERNED_CAP);
  });
});

describe('ConcurrencyLimit.setMax', () => {
  it('holds new tasks while running ones exceed a narrower cap, and starts waiting ones when it widens', async () => {
    const limit = new ConcurrencyLimit(3, Infinity);
    const enders: Array<() => void> = [];
    let started = 0;
    const add = () =>
      limit.run(undefined, () => {
        started++;
        return new Promise<void>((resolve) => enders.push(resolve));
      });
    for (let task = 0; task < 6; task++) void add();
    expect(started).toBe(3);
    limit.setMax(1);
    enders.shift()!();
    await settle();
    // Two still run against a cap of one: nothing starts.
    expect(started).toBe(3);
    limit.setMax(4);
    expect(started).toBe(5);
    expect(limit.queued).toBe(1);
  });
});
