import { RE2JS } from 're2js';

/**
 * Regular expressions from API clients (silence matchers, `filter=`) and from the config, compiled
 * with RE2 semantics as Alertmanager does: linear-time matching (no backtracking, so no pattern can
 * block the event loop), no backreferences or lookaround, and the whole value must match.
 */

/** Alertmanager puts no limit here; a pattern longer than this is a mistake or an attack. */
export const MAX_PATTERN_LENGTH = 1_024;
/**
 * Linear time is time proportional to the value's length times the compiled program's size, and
 * counted repetition multiplies the program (`((.*){30}){30}` compiles to about 3,700
 * instructions). This cap keeps one match of a label value in microseconds.
 */
export const MAX_PROGRAM_SIZE = 2_000;
/** Distinct patterns kept compiled; least recently used ones are compiled again when asked. */
const CACHE_SIZE = 512;

export interface LinearRegex {
  test(value: string): boolean;
}

export class RegexError extends Error {}

const cache = new Map<string, LinearRegex>();

/** Compiles (or finds compiled) a full-match pattern; throws RegexError naming what is wrong. */
export function linearRegex(pattern: string): LinearRegex {
  const cached = cache.get(pattern);
  if (cached) {
    cache.delete(pattern);
    cache.set(pattern, cached);
    return cached;
  }
  const regex = compile(pattern);
  cache.set(pattern, regex);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return regex;
}

function compile(pattern: string): LinearRegex {
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new RegexError(`is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new RegexError(`is not a valid RE2 regular expression: ${(error as Error).message}`);
  }
  const size = programSize(compiled);
  if (size === undefined || size > MAX_PROGRAM_SIZE) {
    throw new RegexError(
      `is too complex (compiles to ${size ?? 'an unknown number of'} instructions, at most ${MAX_PROGRAM_SIZE}): use fewer or smaller counted repetitions`,
    );
  }
  return { test: (value) => compiled.matches(value) };
}

/**
 * re2js does not publish the program size, so it is read from the compiled program; should that
 * shape change in an update, every regex is refused (fails closed) and the matcher tests say so.
 */
function programSize(compiled: RE2JS): number | undefined {
  const size = (compiled as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog?.inst?.length;
  return typeof size === 'number' ? size : undefined;
}
