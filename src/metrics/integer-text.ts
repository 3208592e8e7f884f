/**
 * A sample value that is a safe integer, written and compared as the digits String() gives it,
 * without making the string: V8 keeps each number's string in its number-to-string cache, so the
 * strings of a fleet's thousands of values a second outlived the young generation (V8's sampling
 * heap profiler, 2026-11-30: as many bytes survived as were made). Other values go through String().
 */
export function isWrittenAsInteger(value: number): boolean {
  return Number.isSafeInteger(value);
}

/** The most bytes a safe integer takes: a sign and 16 digits. */
export const MAX_INTEGER_BYTES = 17;

/** Writes `value` (a safe integer) at `at`, as String(value) would; returns the index past it. */
export function writeInteger(buffer: Buffer, at: number, value: number): number {
  let rest = value;
  if (rest < 0) {
    buffer[at++] = MINUS;
    rest = -rest;
  }
  const end = at + digitCount(rest);
  for (let index = end - 1; index >= at; index--) {
    const digit = rest % 10;
    buffer[index] = ZERO + digit;
    rest = (rest - digit) / 10;
  }
  return end;
}

/** Where `value` (a safe integer) written as by writeInteger ends, when `buffer` holds it at `at`; -1 when it does not. */
export function integerEndAt(buffer: Buffer, at: number, value: number): number {
  let rest = value;
  if (rest < 0) {
    if (buffer[at++] !== MINUS) return -1;
    rest = -rest;
  }
  const end = at + digitCount(rest);
  if (end > buffer.length) return -1;
  for (let index = end - 1; index >= at; index--) {
    const digit = rest % 10;
    if (buffer[index] !== ZERO + digit) return -1;
    rest = (rest - digit) / 10;
  }
  return end;
}

/** Decimal digits of a non-negative safe integer (-0 included, which String() writes as "0"). */
function digitCount(value: number): number {
  let count = 1;
  for (let power = 10; power <= value; power *= 10) count++;
  return count;
}

const MINUS = 0x2d;
const ZERO = 0x30;
