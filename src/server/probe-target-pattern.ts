/**
 * Patterns of `probe.allowed_targets`, matched against a probe URL in its normalized form
 * (see normalizeProbeUrl): `scheme://host[:port][/path]`, lowercase scheme and host, no default
 * port, no trailing slash, never user info, query or fragment.
 *
 * - A glob matches the whole normalized URL. `*` stands for one or more characters within one host
 *   label, port or path segment: it never matches `.`, `:`, `/`, `@`, `?` or `#`, so
 *   `http://10.0.0.*:9650` cannot match `http://10.0.0.1.evil.example:9650`.
 * - `re:<regex>` is a JavaScript regular expression, anchored at both ends.
 */
export interface CompiledPattern {
  readonly regex?: RegExp;
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
  return { regex: new RegExp(`^${body}$`) };
}

function compileRegex(source: string): CompiledPattern {
  if (source === '') return { error: 're: needs a regular expression after the prefix' };
  try {
    return { regex: new RegExp(`^(?:${source})$`) };
  } catch (error) {
    return { error: `invalid regular expression: ${(error as Error).message}` };
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles a validated pattern list once; the config schema has already rejected bad patterns. */
export function targetMatcher(patterns: readonly string[]): (normalizedUrl: string) => boolean {
  const regexes = patterns.map((pattern) => compileTargetPattern(pattern).regex).filter((regex): regex is RegExp => regex !== undefined);
  return (normalizedUrl) => regexes.some((regex) => regex.test(normalizedUrl));
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
