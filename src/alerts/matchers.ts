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
  if (matcher.op === '=~' || matcher.op === '!~') anchored(matcher.value);
  return matcher;
}

/** Alertmanager's regexes match the whole value. */
function anchored(source: string): RegExp {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch (error) {
    throw new Error(`"${source}" is not a valid regular expression: ${(error as Error).message}`);
  }
}

const regexCache = new Map<string, RegExp>();

/** A missing label matches as the empty string, as in Alertmanager. */
export function matches(matcher: Matcher, labels: Labels): boolean {
  const value = labels[matcher.name] ?? '';
  switch (matcher.op) {
    case '=':
      return value === matcher.value;
    case '!=':
      return value !== matcher.value;
    default: {
      let regex = regexCache.get(matcher.value);
      if (!regex) regexCache.set(matcher.value, (regex = anchored(matcher.value)));
      return regex.test(value) === (matcher.op === '=~');
    }
  }
}

export function matchesAll(matchers: readonly Matcher[], labels: Labels): boolean {
  return matchers.every((matcher) => matches(matcher, labels));
}

export function formatMatcher(matcher: Matcher): string {
  return `${matcher.name}${matcher.op}${JSON.stringify(matcher.value)}`;
}
