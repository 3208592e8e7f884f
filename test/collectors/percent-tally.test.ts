import { describe, expect, it } from 'vitest';
import { PercentTally } from '../../src/collectors/percent-tally.js';

describe('PercentTally', () => {
  it('sums weight per percent as a map would, whole percents and the odd ones a peer may send', () => {
    const tally = new PercentTally();
    const reference = new Map<number, number>();
    const entries: Array<[number, number]> = [
      [99, 2e15],
      [100, 3e12],
      [99, 7],
      [0, 5],
      [99.5, 11],
      [250, 13],
      [-1, 17],
      [100, 1],
    ];
    for (const [percent, weight] of entries) {
      tally.add(percent, weight);
      reference.set(percent, (reference.get(percent) ?? 0) + weight);
    }
    const sums = tally.toMap();
    expect(new Map([...sums].sort(([a], [b]) => a - b))).toEqual(new Map([...reference].sort(([a], [b]) => a - b)));
    // Whole percents first, ascending: no entry for a percent nobody sent.
    expect([...sums.keys()].slice(0, 3)).toEqual([0, 99, 100]);
  });

  it('is empty when nothing was added', () => {
    expect(new PercentTally().toMap().size).toBe(0);
  });
});
