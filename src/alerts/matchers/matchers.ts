import { compileRegex, MAX_PROGRAM_SIZE, RegexError, type CompiledRegex } from './linear-regex.js';

/**
 * An Alertmanager label matcher: `name="value"`, `name!="value"`, `name=~"regex"`, `name!~"regex"`.
 * A regex matcher carries its pattern compiled: matching never compiles.
 */
export type Matcher =
  | { readonly name: string; readonly op: '=' | '!='; readonly value: string }
  | { readonly name: string; readonly op: '=~' | '!~'; readonly value: string; readonly regex: CompiledRegex };

export type MatchOp = Matcher['op'];

type Labels = Readonly<Record<string, string>>;

const MATCHER = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|([^"\s,{}]*))\s*$/;

/**
 * Parses one matcher as Alertmanager writes it; the value may be quoted (with \" escapes) or bare.
 * `maxProgramSize` caps a regex's program: the config's patterns get more room than a client's.
 */
export function parseMatcher(text: string, maxProgramSize = MAX_PROGRAM_SIZE): Matcher {
  const match = MATCHER.exec(text);
  if (!match) throw new Error(`"${text}" is not a label matcher like alertname="AvaxmonTargetDown" or severity=~"warning|info"`);
  const value = match[3] !== undefined ? match[3].replace(/\\(.)/g, '$1') : match[4];
  return buildMatcher(match[1], match[2] as MatchOp, value, maxProgramSize);
}

/**
 * One item of a config's matcher list, as Alertmanager's ParseMatchers reads it: one matcher or
 * several, comma-separated, optionally in braces (`{service="files", severity!="info"}`). A comma
 * inside quotes belongs to the value.
 */
export function parseMatchers(text: string, maxProgramSize = MAX_PROGRAM_SIZE): Matcher[] {
  const inner = text.trim().replace(/^\{/, '').replace(/\}$/, '');
  const tokens: string[] = [];
  let token = '';
  let quoted = false;
  let escaped = false;
  for (const char of inner) {
    if (char === ',' && !quoted) {
      tokens.push(token);
      token = '';
      continue;
    }
    if (char === '"' && !escaped) quoted = !quoted;
    escaped = char === '\\' && !escaped;
    token += char;
  }
  if (token.trim() !== '') tokens.push(token);
  if (tokens.length === 0) throw new Error(`"${text}" holds no label matcher`);
  return tokens.map((each) => parseMatcher(each, maxProgramSize));
}

/** A matcher with its regex compiled; throws naming the pattern when RE2 refuses it. */
export function buildMatcher(name: string, op: MatchOp, value: string, maxProgramSize = MAX_PROGRAM_SIZE): Matcher {
  if (op === '=' || op === '!=') return { name, op, value };
  return { name, op, value, regex: checkedRegex(value, maxProgramSize) };
}

function checkedRegex(pattern: string, maxProgramSize: number): CompiledRegex {
  try {
    return compileRegex(pattern, maxProgramSize);
  } catch (error) {
    if (error instanceof RegexError) throw new Error(`"${pattern.length > 80 ? `${pattern.slice(0, 80)}...` : pattern}" ${error.message}`);
    throw error;
  }
}

/** A missing label matches as the empty string, as in Alertmanager. */
export function matches(matcher: Matcher, labels: Labels): boolean {
  return matchesValue(matcher, labels[matcher.name] ?? '');
}

export function matchesValue(matcher: Matcher, value: string): boolean {
  switch (matcher.op) {
    case '=':
      return value === matcher.value;
    case '!=':
      return value !== matcher.value;
    default:
      return matcher.regex.test(value) === (matcher.op === '=~');
  }
}

export function matchesAll(matchers: readonly Matcher[], labels: Labels): boolean {
  return matchers.every((matcher) => matches(matcher, labels));
}

export function formatMatcher(matcher: Pick<Matcher, 'name' | 'op' | 'value'>): string {
  return `${matcher.name}${matcher.op}${JSON.stringify(matcher.value)}`;
}
