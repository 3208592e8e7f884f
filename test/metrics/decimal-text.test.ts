import { describe, expect, it } from 'vitest';
import { fractionEndAt, UNDECIDED } from '../../src/metrics/decimal-text.js';

function randomFractions(count: number): number[] {
  let state = 47;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: count }, (_, index) => {
    const scale = 10 ** Math.floor(next() * 20 - 8);
    const value = (next() - 0.5) * scale;
    // Rounded to few digits (timestamps to the millisecond, durations to the microsecond), and full doubles.
    return index % 2 === 0 ? Math.round(value * 1e6) / 1e6 : value;
  });
}

const held = (text: string) => Buffer.from(`${text}\n`, 'latin1');

describe('a fraction compared with the text String() wrote, without making it', () => {
  it('finds its own text, and ends where String() ends, or leaves it to String()', () => {
    let decided = 0;
    for (const value of [0.5, -0.5, 0.1, 0.3, 1764532800.123, 0.000123, 123.456, 1e-7, 2 ** 53, 1e21, ...randomFractions(20_000)]) {
      if (Number.isSafeInteger(value)) continue;
      const text = String(value);
      const end = fractionEndAt(held(text), 0, value);
      if (end === UNDECIDED) {
        // Off the fast path: an exponent, or more digits than a safe integer holds.
        expect(/e|\d{16,}/.test(text.replace('.', ''))).toBe(true);
        continue;
      }
      decided++;
      expect(end).toBe(text.length);
    }
    expect(decided).toBeGreaterThan(10_000);
  });

  it('tells another number apart, however close', () => {
    let told = 0;
    for (const value of [...randomFractions(20_000), 0.1, 1764532800.123]) {
      if (Number.isSafeInteger(value)) continue;
      const text = String(value);
      for (const other of [value * (1 + Number.EPSILON), value + 1e-6, -value, value / 2]) {
        // A safe integer is compared as one, never as a fraction.
        if (other === value || Number.isSafeInteger(other)) continue;
        const end = fractionEndAt(held(text), 0, other);
        expect(end === -1 || end === UNDECIDED).toBe(true);
        if (end === -1) told++;
      }
    }
    expect(told).toBeGreaterThan(30_000);
  });

  it("reads an integer's text as a different number from a fraction", () => {
    expect(fractionEndAt(held('5'), 0, 5.5)).toBe(-1);
    expect(fractionEndAt(held('0'), 0, 0.25)).toBe(-1);
    expect(fractionEndAt(held('-12'), 0, -12.5)).toBe(-1);
  });

  it('leaves NaN, infinities and exponents to String()', () => {
    for (const text of ['NaN', '+Inf', '-Inf', '1e-7', '1.5e+21', '12345678901234567.5']) {
      expect(fractionEndAt(held(text), 0, 0.5)).toBe(UNDECIDED);
    }
  });
});
