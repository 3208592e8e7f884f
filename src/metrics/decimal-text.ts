import { writeInteger } from './integer-text.js';

/**
 * Whether a fraction (a value not written as an integer) is the one whose String() text `buffer`
 * holds at `at`, told without making that text: the text is read back to a number instead. A
 * rendering compares every line with the one before it, and most fractions of a fleet (ratios,
 * timestamps, stake) are the same as last time; String() made a string for each, which V8's
 * number-to-string cache then kept past the young generation.
 *
 * Reading back is exact on its fast path: digits, at most one point, no exponent, and digits that
 * fit a safe integer. The integer and the power of ten are then both exact, and IEEE division
 * rounds their quotient as parsing the text does: the number String() wrote it from. Text off the
 * fast path (exponents, 16 or more digits, NaN and infinities) answers UNDECIDED.
 */
export const UNDECIDED = -2;

/** Where the text ends when it is String(value), -1 when it is another number's, UNDECIDED when the fast path cannot tell. */
export function fractionEndAt(buffer: Buffer, at: number, value: number): number {
  let index = at;
  const negative = buffer[index] === MINUS;
  if (negative) index++;
  let digits = 0;
  let mantissa = 0;
  let fractionDigits = -1;
  for (; index < buffer.length; index++) {
    const byte = buffer[index];
    if (byte === POINT && fractionDigits < 0) {
      fractionDigits = 0;
      continue;
    }
    const digit = byte - ZERO;
    if (digit < 0 || digit > 9) break;
    mantissa = mantissa * 10 + digit;
    digits++;
    if (fractionDigits >= 0) fractionDigits++;
  }
  const next = buffer[index];
  if (digits === 0 || mantissa > Number.MAX_SAFE_INTEGER || next === LETTER_E || fractionDigits > MAX_EXACT_POWER) return UNDECIDED;
  const magnitude = fractionDigits > 0 ? mantissa / 10 ** fractionDigits : mantissa;
  return (negative ? -magnitude : magnitude) === value ? index : -1;
}

/**
 * Writes a fraction of at most six decimals, under 2^32 in magnitude (a run's duration to the
 * microsecond, a time to the millisecond), as String() writes it, without making the string;
 * returns the index past it, or -1 for any other value (String()'s to write). The decimal text of
 * n / 10^6 with its trailing zeros cut parses back to that value, and is String()'s shortest text:
 * any other of as few digits is at least 10^-6 away, and neighbouring doubles below 2^32 are
 * 2^-21 apart. `buffer` has room for MAX_FRACTION_BYTES at `at`.
 */
export function writeFraction(buffer: Buffer, at: number, value: number): number {
  const magnitude = Math.abs(value);
  const micros = Math.round(magnitude * MICROS_PER_UNIT);
  if (magnitude >= FRACTION_LIMIT || micros / MICROS_PER_UNIT !== magnitude || micros % MICROS_PER_UNIT === 0) return -1;
  if (value < 0) buffer[at++] = MINUS;
  const whole = Math.floor(micros / MICROS_PER_UNIT);
  at = writeInteger(buffer, at, whole);
  buffer[at++] = POINT;
  let fraction = micros - whole * MICROS_PER_UNIT;
  let digits = FRACTION_DIGITS;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  for (let index = at + digits - 1; index >= at; index--) {
    buffer[index] = ZERO + (fraction % 10);
    fraction = Math.floor(fraction / 10);
  }
  return at + digits;
}

/** A sign, ten digits below 2^32, a point and six decimals. */
export const MAX_FRACTION_BYTES = 18;
const FRACTION_DIGITS = 6;
const MICROS_PER_UNIT = 1e6;
const FRACTION_LIMIT = 2 ** 32;

/** 10^22 is the largest power of ten a double holds exactly. */
const MAX_EXACT_POWER = 22;
const MINUS = 0x2d;
const POINT = 0x2e;
const ZERO = 0x30;
const LETTER_E = 0x65;
