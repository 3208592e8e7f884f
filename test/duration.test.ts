import { describe, expect, it } from 'vitest';
import { parseDuration } from '../src/duration.js';
import { jitterMs } from '../src/scheduler.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['15s', 15_000],
    ['1m', 60_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '15', 's', '1x', '-1s', '1s junk'])('rejects %j', (text) => expect(parseDuration(text)).toBeUndefined());
});

describe('jitter', () => {
  it('spreads 100 targets over most of the interval, the same way every time', () => {
    const offsets = Array.from({ length: 100 }, (_, index) => jitterMs(`validator-${index}/health`, 15_000));
    const seconds = new Set(offsets.map((offset) => Math.floor(offset / 1000)));
    expect(seconds.size).toBeGreaterThanOrEqual(12);
    expect(Math.max(...offsets)).toBeLessThan(15_000);
    expect(jitterMs('validator-7/health', 15_000)).toBe(offsets[7]);
  });
});
