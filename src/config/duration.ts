const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/**
 * Prometheus-style: each unit at most once, largest first ("1h30m", never "30m1h" or "1s1s"), so a
 * typo cannot silently add up to a different duration. Fractions ("1.5s") are accepted as before.
 */
const DURATION =
  /^(?:(\d+(?:\.\d+)?)w)?(?:(\d+(?:\.\d+)?)d)?(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;
const UNITS_IN_ORDER = ['w', 'd', 'h', 'm', 's', 'ms'];

/** The longest delay a Node.js timer can hold (2^31-1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Parses Prometheus-style durations ("500ms", "15s", "1h30m", "2w") into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match || text === '') return undefined;
  let total = 0;
  UNITS_IN_ORDER.forEach((unit, index) => {
    const amount = match[index + 1];
    if (amount !== undefined) total += Number(amount) * UNIT_MS[unit];
  });
  return Number.isFinite(total) ? total : undefined;
}

/** Milliseconds as Prometheus writes a duration, in the largest unit that divides them: "5m", "1h", "0s". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const unit = UNITS_IN_ORDER.find((name) => name !== 'w' && ms % UNIT_MS[name]! === 0)!;
  return `${ms / UNIT_MS[unit]!}${unit}`;
}
