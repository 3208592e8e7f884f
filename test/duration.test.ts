import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../src/config/duration.js';
import { jitterMs } from '../src/schedule/scheduler.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['15s', 15_000],
    ['1m', 60_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
    ['1w2d3h4m5s6ms', 788_645_006],
    ['1.5s', 1_500],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  // Each unit once and largest first, as Prometheus: "1s1s" or "30s1m" is a typo, not 2s or 90s.
  it.each(['', '15', 's', '1x', '-1s', '1s junk', '1s1s', '30s1m', '1ms1s', '1y', '1e3s'])('rejects %j', (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
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

describe('formatDuration', () => {
  it('writes milliseconds in the largest unit that divides them, as parseDuration reads them back', () => {
    for (const [ms, text] of [
      [0, '0s'],
      [1_500, '1500ms'],
      [30_000, '30s'],
      [300_000, '5m'],
      [3_600_000, '1h'],
      [7 * 86_400_000, '7d'],
    ] as const) {
      expect(formatDuration(ms)).toBe(text);
      expect(parseDuration(text)).toBe(ms);
    }
  });
});
