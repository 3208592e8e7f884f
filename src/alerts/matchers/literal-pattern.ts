/**
 * Most label matchers are literals with `|` and a leading or trailing `.*` or `.+`
 * (`validator-1|validator-2`, `node-.*`, `.+`). Those are matched with string operations, no RE2
 * program: a silence of 32 such matchers costs a few strings, where 32 compiled programs cost about
 * 200 KB. Anything else (`(`, `[`, `\`, `?`, a `.` inside a literal, ...) is left to RE2.
 */

interface Alternative {
  /** The least number of characters before and after the literal: 0 for `.*`, 1 for `.+`; undefined for none. */
  readonly before?: 0 | 1;
  readonly after?: 0 | 1;
  readonly literal: string;
}

const META = /[\\.+*?()|[\]{}^$\n]/;

/** A test for `pattern` with RE2's full-match semantics, or undefined when it is not of the literal shape. */
export function literalPattern(pattern: string): ((value: string) => boolean) | undefined {
  const alternatives: Alternative[] = [];
  for (const text of pattern.split('|')) {
    const alternative = parseAlternative(text);
    if (!alternative) return undefined;
    alternatives.push(alternative);
  }
  return (value) => alternatives.some((alternative) => matchesAlternative(alternative, value));
}

function parseAlternative(text: string): Alternative | undefined {
  let rest = text;
  const before = dotPrefix(rest);
  if (before !== undefined) rest = rest.slice(2);
  const after = rest.length >= 2 ? dotPrefix(rest.slice(-2)) : undefined;
  if (after !== undefined) rest = rest.slice(0, -2);
  if (META.test(rest)) return undefined;
  return { before, after, literal: rest };
}

function dotPrefix(text: string): 0 | 1 | undefined {
  if (text.startsWith('.*')) return 0;
  if (text.startsWith('.+')) return 1;
  return undefined;
}

/** `.` is any character but a newline, as in RE2 without the `s` flag; the literal holds no newline. */
function matchesAlternative({ before, after, literal }: Alternative, value: string): boolean {
  if (before === undefined && after === undefined) return value === literal;
  if (value.includes('\n')) return false;
  const start = codeUnitsOf(value, before ?? 0);
  if (start === undefined) return false;
  if (before === undefined && !value.startsWith(literal)) return false;
  if (after === undefined) return value.endsWith(literal) && value.length - literal.length >= start;
  // The earliest occurrence leaves the most room after it.
  const at = before === undefined ? 0 : value.indexOf(literal, start);
  if (at < 0) return false;
  const rest = value.slice(at + literal.length);
  return after === 0 || codeUnitsOf(rest, 1) !== undefined;
}

/** Where the value's `count`-th code point ends (0 or 1 code points; a surrogate pair is one), or undefined if it is shorter. */
function codeUnitsOf(value: string, count: 0 | 1): number | undefined {
  if (count === 0) return 0;
  const first = value.codePointAt(0);
  if (first === undefined) return undefined;
  return first > 0xffff ? 2 : 1;
}
