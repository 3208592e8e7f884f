import { linearRegex, RegexError } from './linear-regex.js';

/** An Alertmanager label matcher: `name="value"`, `name!="value"`, `name=~"regex"`, `name!~"regex"`. */
export interface Matcher {
  readonly name: string;
  readonly op: '=' | '!=' | '=~' | '!~';
  readonly value: string;
}

type Labels = Readonly<Record<string, string>>;

const MATCHER = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|([^"\s,{}]*))\s*$/;

/** Parses one matcher as Alertmanager writes it; the value may be quoted (with \" escapes) or bare. */
export function parseMatcher(text: string): Matcher {
  const match = MATCHER.exec(text);
  if (!match) throw new Error(`"${text}" is not a label matcher like alertname="AvaxmonTargetDown" or severity=~"warning|info"`);
  const value = match[3] !== undefined ? match[3].replace(/\\(.)/g, '$1') : match[4];
  const matcher: Matcher = { name: match[1], op: match[2] as Matcher['op'], value };
  if (matcher.op === '=~' || matcher.op === '!~') checkedRegex(matcher.value);
  return matcher;
}

/** The regex of a `=~` or `!~` matcher; throws naming the pattern when RE2 refuses it. */
export function checkedRegex(pattern: string): ReturnType<typeof linearRegex> {
  try {
    return linearRegex(pattern);
  } catch (error) {
    if (error instanceof RegexError) throw new Error(`"${pattern.length > 80 ? `${pattern.slice(0, 80)}...` : pattern}" ${error.message}`);
    throw error;
  }
}

/** A missing label matches as the empty string, as in Alertmanager. */
export function matches(matcher: Matcher, labels: Labels): boolean {
  const value = labels[matcher.name] ?? '';
  switch (matcher.op) {
    case '=':
      return value === matcher.value;
    case '!=':
      return value !== matcher.value;
    default:
      return linearRegex(matcher.value).test(value) === (matcher.op === '=~');
  }
}

export function matchesAll(matchers: readonly Matcher[], labels: Labels): boolean {
  return matchers.every((matcher) => matches(matcher, labels));
}

export function formatMatcher(matcher: Matcher): string {
  return `${matcher.name}${matcher.op}${JSON.stringify(matcher.value)}`;
}
