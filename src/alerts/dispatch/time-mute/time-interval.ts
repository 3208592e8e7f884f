/**
 * Alertmanager's time intervals (timeinterval/): a route's mute_time_intervals and
 * active_time_intervals name sets of these. An interval holds a time when every dimension it sets
 * holds it; an unset dimension holds any time. Ranges are inclusive, `times` end exclusively.
 */
export interface TimeInterval {
  /** Minutes of the day, [start, end). */
  readonly times?: ReadonlyArray<readonly [number, number]>;
  /** Sunday = 0. */
  readonly weekdays?: ReadonlyArray<readonly [number, number]>;
  /** Negative days count from the end of the month (-1 is its last day). */
  readonly daysOfMonth?: ReadonlyArray<readonly [number, number]>;
  /** January = 1. */
  readonly months?: ReadonlyArray<readonly [number, number]>;
  readonly years?: ReadonlyArray<readonly [number, number]>;
  /** An IANA time zone; UTC when unset. */
  readonly location?: string;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

interface Calendar {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
  readonly minute: number;
  readonly daysInMonth: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `ms` in `location`, as Go's time.In gives them. */
function calendarOf(ms: number, location = 'UTC'): Calendar {
  let formatter = formatters.get(location);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: location,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'long',
    });
    formatters.set(location, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  const [year, month, day] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  return {
    year,
    month,
    day,
    weekday: WEEKDAYS.indexOf(parts.weekday.toLowerCase()),
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    daysInMonth: new Date(Date.UTC(year, month, 0)).getUTCDate(),
  };
}

const within = (ranges: ReadonlyArray<readonly [number, number]> | undefined, value: number) =>
  ranges === undefined || ranges.some(([begin, end]) => value >= begin && value <= end);

function dayWithin(ranges: ReadonlyArray<readonly [number, number]> | undefined, calendar: Calendar): boolean {
  if (ranges === undefined) return true;
  const { day, daysInMonth } = calendar;
  return ranges.some(([from, to]) => {
    const begin = from < 0 ? daysInMonth + from + 1 : from;
    const end = to < 0 ? daysInMonth + to + 1 : to;
    if (begin > daysInMonth) return false;
    return day >= Math.max(begin, -daysInMonth) && day <= Math.min(end, daysInMonth);
  });
}

export function containsTime(interval: TimeInterval, ms: number): boolean {
  const calendar = calendarOf(ms, interval.location);
  if (interval.times && !interval.times.some(([start, end]) => calendar.minute >= start && calendar.minute < end)) return false;
  return (
    dayWithin(interval.daysOfMonth, calendar) &&
    within(interval.months, calendar.month) &&
    within(interval.weekdays, calendar.weekday) &&
    within(interval.years, calendar.year)
  );
}

/** Whether any interval of any of the named sets holds `ms`. */
export function inTimeIntervals(names: readonly string[], intervals: ReadonlyMap<string, readonly TimeInterval[]>, ms: number): boolean {
  return names.some((name) => (intervals.get(name) ?? []).some((interval) => containsTime(interval, ms)));
}

/** "09:00" → 540; "24:00" is the end of the day. */
export function parseClock(text: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
  if (!match || Number(match[2]) > 59 || minutes > 24 * 60) throw new Error(`"${text}" is not a time of day like "09:00" (00:00 to 24:00)`);
  return minutes;
}

/** One "begin:end" or single value of a dimension, names or numbers. */
export function parseRange(text: string, kind: 'weekdays' | 'days_of_month' | 'months' | 'years'): [number, number] {
  const [first, second = first, ...rest] = text.split(':');
  if (rest.length > 0) throw new Error(`"${text}" is not a range like "a:b"`);
  const [begin, end] = [valueOf(first.trim(), kind), valueOf(second.trim(), kind)];
  const bothSameSign = kind !== 'days_of_month' || Math.sign(begin) === Math.sign(end);
  if (bothSameSign && begin > end) throw new Error(`"${text}": the start of the range is after its end`);
  return [begin, end];
}

function valueOf(text: string, kind: 'weekdays' | 'days_of_month' | 'months' | 'years'): number {
  const lower = text.toLowerCase();
  if (kind === 'weekdays') {
    if (!WEEKDAYS.includes(lower)) throw new Error(`"${text}" is not a weekday (sunday to saturday)`);
    return WEEKDAYS.indexOf(lower);
  }
  if (kind === 'months' && MONTHS.includes(lower)) return MONTHS.indexOf(lower) + 1;
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  const [min, max] = { days_of_month: [-31, 31], months: [1, 12], years: [1, 9999] }[kind];
  if (!(value >= min && value <= max) || (kind === 'days_of_month' && value === 0))
    throw new Error(
      `"${text}" is not a valid ${kind === 'days_of_month' ? 'day of the month (1 to 31, or -31 to -1)' : kind.slice(0, -1)}`,
    );
  return value;
}

/** Whether `location` names a time zone Intl knows. */
export function knownLocation(location: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: location });
    return true;
  } catch {
    return false;
  }
}
