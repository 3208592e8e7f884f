/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries from
 * many alerts spread out without any retry coming back immediately.
 */
export function backoffMs(attempt: number, initialMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}
