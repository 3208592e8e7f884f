/**
 * Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3); the wait in ms, never
 * negative. Decimal seconds ("0.5", as Discord sends) are read as seconds too, not as a date.
 */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
