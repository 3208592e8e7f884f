import { describe, expect, it } from 'vitest';
import { integerEndAt, isWrittenAsInteger, MAX_INTEGER_BYTES, writeInteger } from '../../src/metrics/integer-text.js';

const EDGES = [0, -0, 1, -1, 9, 10, 11, 99, 100, -100, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 1e15, 1e15 - 1, 2 ** 53 - 1, -(2 ** 53 - 1)];

function randomSafeIntegers(count: number): number[] {
  let state = 47;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: count }, () => Math.round((next() - 0.5) * 2 * 10 ** Math.floor(next() * 16)));
}

describe('a safe integer written without a string', () => {
  it('is written as String() writes it, and read back to its end', () => {
    for (const value of [...EDGES, ...randomSafeIntegers(5_000)]) {
      const buffer = Buffer.alloc(MAX_INTEGER_BYTES + 3, 0x20);
      const end = writeInteger(buffer, 2, value);
      expect(buffer.toString('latin1', 2, end)).toBe(String(value));
      expect(integerEndAt(buffer, 2, value)).toBe(end);
    }
  });

  it('is not found where other digits, another sign or too few bytes are', () => {
    const held = (text: string) => Buffer.from(text, 'latin1');
    expect(integerEndAt(held('124'), 0, 123)).toBe(-1);
    expect(integerEndAt(held('-123'), 0, 123)).toBe(-1);
    expect(integerEndAt(held('123'), 0, -123)).toBe(-1);
    expect(integerEndAt(held('12'), 0, 123)).toBe(-1);
    // A longer number held there: its end is the caller's to check (a line's value ends at its newline).
    expect(integerEndAt(held('1234'), 0, 123)).toBe(3);
  });

  it('covers safe integers only: fractions, large, non-finite values and NaN go through String()', () => {
    expect(EDGES.every(isWrittenAsInteger)).toBe(true);
    for (const value of [0.5, -1.5, 2 ** 53, 1e21, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(isWrittenAsInteger(value)).toBe(false);
    }
  });
});
