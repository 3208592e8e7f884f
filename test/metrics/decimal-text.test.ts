import { describe, expect, it } from 'vitest';
import { fractionEndAt, MAX_FRACTION_BYTES, UNDECIDED, writeFraction } from '../../src/metrics/decimal-text.js';

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

describe('a fraction of at most six decimals written without a string', () => {
  const written = (value: number) => {
    const buffer = Buffer.alloc(MAX_FRACTION_BYTES + 4, 0x20);
    const end = writeFraction(buffer, 2, value);
    return end < 0 ? undefined : buffer.toString('latin1', 2, end);
  };

  it('is written as String() writes it: durations to the microsecond, times to the millisecond, either sign', () => {
    let state = 11;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const values = [0.5, 0.000001, 0.1, 0.3, 1764532800.123, 1764532800.1, 4294967295.999999, -0.012346, 123.45];
    for (let index = 0; index < 50_000; index++) {
      const magnitude = 10 ** Math.floor(next() * 16 - 6);
      const raw = (next() - 0.3) * magnitude;
      values.push(index % 2 === 0 ? Math.round(raw * 1e6) / 1e6 : Math.round(raw * 1e3) / 1e3);
    }
    let fast = 0;
    for (const value of values) {
      if (Number.isSafeInteger(value)) continue;
      const text = written(value);
      if (Math.abs(value) < 2 ** 32) expect(text).toBe(String(value));
      else expect(text).toBeUndefined();
      if (text !== undefined) fast++;
    }
    expect(fast).toBeGreaterThan(40_000);
  });

  it('leaves to String() what has more decimals, is 2^32 or more, or is not finite', () => {
    for (const value of [
      0.1 + 0.2,
      1 / 3,
      0.0000001,
      2 ** 32 + 0.5,
      1e21,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]) {
      expect(written(value)).toBeUndefined();
    }
  });
});
