import { z } from 'zod';
import { MAX_TIMER_MS, parseDuration } from './duration.js';

/**
 * A Prometheus-style duration string ("15s", "1m30s", "1w") parsed to milliseconds. Every duration
 * ends up in a timer or a schedule, so anything a timer cannot hold is refused here rather than
 * firing at once (Node's timers clamp longer delays to 1 ms) later.
 */
/** A bare number has no unit: say which one it probably meant rather than "expected string". */
const durationText = z.string({
  error: (issue) =>
    typeof issue.input === 'number'
      ? `must be a duration with a unit, like "${issue.input}s" or "${issue.input}ms" (got the number ${issue.input})`
      : undefined,
});

export const durationMs = durationText.transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be a duration like 500ms, 15s, 1m or 1h (got "${text}")` });
    return z.NEVER;
  }
  if (ms > MAX_TIMER_MS) {
    ctx.addIssue({ code: 'custom', message: `must be at most 24d, the longest a timer can wait (got "${text}")` });
    return z.NEVER;
  }
  return ms;
});

/** An HTTP field name (RFC 9110 token): anything else would be refused by undici at the first request. */
export const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)");

/** Why a header value cannot be sent, or undefined: CR/LF would split the request, NUL is refused. */
export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'must not contain a line break (CR or LF)';
  // Visible ASCII, space, tab and obs-text (RFC 9110 field-value); undici refuses anything else.
  if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) return 'must hold only printable characters (no control characters)';
  return undefined;
}

export const headerValue = z.string().superRefine((value, ctx) => {
  const problem = headerValueProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const httpUrl = z.string().refine((text) => /^https?:\/\/[^\s/]+/.test(text) && URL.canParse(text), 'must be an http(s) URL');

/**
 * A node's base URL: avaxmon adds /ext/info, /ext/health and the chain paths itself, so a URL that
 * already names one would fail every request later; said at check-config time instead.
 */
export const nodeBaseUrl = httpUrl.superRefine((text, ctx) => {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !/\/ext(\/|$)/.test(url.pathname)) return;
  ctx.addIssue({
    code: 'custom',
    message: `must be the node's base URL (like ${url.origin}), without an API path such as ${url.pathname}`,
  });
});

/** Label values become Prometheus label values and log fields: keep them short and printable. */
export const labelName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/, 'must be 1-63 characters of letters, digits, _ . : -');

export const nodeId = z.string().regex(/^NodeID-[1-9A-HJ-NP-Za-km-z]{20,64}$/, 'must be a NodeID-... id');

/** CB58 ids (subnet, blockchain) as AvalancheGo prints them. */
export const cb58Id = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{40,60}$/, 'must be a CB58 id');
