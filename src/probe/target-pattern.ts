import { type LinearRegex, linearRegex, RegexError } from '../alerts/matchers/linear-regex.js';

/**
 * Patterns of `probe.allowed_targets`, matched against a probe URL in its normalized form
 * (see normalizeProbeUrl): `scheme://host[:port][/path]`, lowercase scheme and host, no default
 * port, no trailing slash, never user info, query or fragment.
 *
 * - A glob matches the whole normalized URL. `*` stands for one or more characters within one host
 *   label, port or path segment: it never matches `.`, `:`, `/`, `@`, `?` or `#`, so
 *   `http://10.0.0.*:9650` cannot match `http://10.0.0.1.evil.example:9650`.
 * - `re:<regex>` is an RE2 regular expression (Alertmanager's and Prometheus' syntax), matching the whole URL.
 *
 * Both run on the linear engine silences use: `?target=` comes from anonymous scrapers, and a
 * backtracking engine takes seconds on a plausible `([a-z0-9-]+\.?)+` or a glob of many stars.
 */
export interface CompiledPattern {
  readonly regex?: LinearRegex;
  readonly error?: string;
}

const REGEX_PREFIX = 're:';
const GLOB_STAR = '[^./:@?#]+';

export function compileTargetPattern(pattern: string): CompiledPattern {
  if (pattern.startsWith(REGEX_PREFIX)) return compileRegex(pattern.slice(REGEX_PREFIX.length));
  if (!/^https?:\/\/[^/]/.test(pattern))
    return { error: `glob "${pattern}" must start with http:// or https:// and a host (or use re:<regex>)` };
  if (/[?#@\s]/.test(pattern)) return { error: `glob "${pattern}" must not contain ?, #, @ or spaces: probe URLs never carry them` };
  const body = pattern.replace(/\/+$/, '').split('*').map(escapeRegex).join(GLOB_STAR);
  return linear(body, `glob "${pattern}"`);
}

function compileRegex(source: string): CompiledPattern {
  if (source === '') return { error: 're: needs a regular expression after the prefix' };
  return linear(source, `re:${source}`);
}

function linear(source: string, shown: string): CompiledPattern {
  try {
    return { regex: linearRegex(source) };
  } catch (error) {
    if (error instanceof RegexError) return { error: `${shown} ${error.message}` };
    throw error;
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const matchers = new WeakMap<readonly string[], (normalizedUrl: string) => boolean>();

/** Compiles a validated pattern list once per config; the config schema has already rejected bad patterns. */
export function targetMatcher(patterns: readonly string[]): (normalizedUrl: string) => boolean {
  const known = matchers.get(patterns);
  if (known) return known;
  const regexes = patterns.map((pattern) => compileTargetPattern(pattern).regex).filter((regex) => regex !== undefined);
  const matcher = (normalizedUrl: string) => regexes.some((regex) => regex.test(normalizedUrl));
  matchers.set(patterns, matcher);
  return matcher;
}

export type NormalizedUrl = { readonly url: string } | { readonly error: string };

/** The one form a probe URL is matched and labelled in; anything ambiguous is refused. */
export function normalizeProbeUrl(raw: string): NormalizedUrl {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { error: 'target is not a valid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { error: 'target URL must use http or https' };
  if (parsed.username || parsed.password) return { error: 'target URL must not contain user info' };
  if (parsed.search || parsed.hash || raw.includes('?') || raw.includes('#'))
    return { error: 'target URL must not contain a query or fragment' };
  if (parsed.hostname === '') return { error: 'target URL needs a host' };
  return { url: `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}` };
}
