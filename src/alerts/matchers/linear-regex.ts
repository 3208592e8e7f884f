import { RE2JS } from 're2js';
import { literalPattern } from './literal-pattern.js';

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
 * instructions). This cap, for patterns from the config, keeps one match of a label value in microseconds.
 */
export const MAX_PROGRAM_SIZE = 2_000;
/**
 * The cap for patterns from API clients. Label matchers need far less (ten node IDs in an
 * alternation compile to 43 instructions), while compiling a pattern and matching it the first
 * time costs about 0.2 ms an instruction (a 402-instruction `(.*x){80}` took 80 ms).
 */
export const CLIENT_MAX_PROGRAM_SIZE = 128;
/** Distinct config patterns kept compiled by linearRegex; least recently used ones are compiled again when asked. */
const CACHE_SIZE = 512;

export interface LinearRegex {
  test(value: string): boolean;
}

/** A compiled pattern and what it holds: its RE2 program's instructions (0 for a literal pattern). */
export interface CompiledRegex extends LinearRegex {
  readonly instructions: number;
}

export class RegexError extends Error {}

/** RE2 programs compiled since the start: tests prove with it that matching never compiles. */
let programsCompiled = 0;
export const compiledPrograms = (): number => programsCompiled;

const cache = new Map<string, LinearRegex>();

/** Compiles (or finds compiled) a full-match pattern of the config; throws RegexError naming what is wrong. */
export function linearRegex(pattern: string): LinearRegex {
  const cached = cache.get(pattern);
  if (cached) {
    cache.delete(pattern);
    cache.set(pattern, cached);
    return cached;
  }
  const regex = compileRegex(pattern);
  cache.set(pattern, regex);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return regex;
}

/**
 * Compiles a full-match pattern once, for its owner to keep (a silence, a filter): literal
 * patterns need no program; others are refused past `maxProgramSize` instructions.
 */
export function compileRegex(pattern: string, maxProgramSize = MAX_PROGRAM_SIZE): CompiledRegex {
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new RegexError(`is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed`);
  const literal = literalPattern(pattern);
  if (literal) return { test: literal, instructions: 0 };
  let compiled: RE2JS;
  try {
    programsCompiled++;
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new RegexError(`is not a valid RE2 regular expression: ${(error as Error).message}`);
  }
  const size = programSize(compiled);
  if (size === undefined || size > maxProgramSize) {
    throw new RegexError(
      `is too complex (compiles to ${size ?? 'an unknown number of'} instructions, at most ${maxProgramSize}): use fewer or smaller counted repetitions`,
    );
  }
  return { test: (value) => compiled.matches(value), instructions: size };
}

/**
 * re2js does not publish the program size, so it is read from the compiled program; should that
 * shape change in an update, every regex is refused (fails closed) and the matcher tests say so.
 */
function programSize(compiled: RE2JS): number | undefined {
  const size = (compiled as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog?.inst?.length;
  return typeof size === 'number' ? size : undefined;
}
