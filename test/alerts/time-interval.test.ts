import { describe, expect, it } from 'vitest';
import { containsTime, parseClock, parseRange } from '../../src/alerts/dispatch/time-mute/time-interval.js';
import { parseConfig } from '../../src/config/load.js';

const at = (iso: string) => Date.parse(iso);

describe('time intervals as Alertmanager reads them', () => {
  it('times end exclusively, in the interval’s location', () => {
    const office = { times: [[parseClock('09:00'), parseClock('17:00')] as const], location: 'Europe/Berlin' };
    // 08:00 UTC is 09:00 in Berlin in winter; 16:00 UTC is 17:00, the end, outside.
    expect(containsTime(office, at('2026-01-05T08:00:00Z'))).toBe(true);
    expect(containsTime(office, at('2026-01-05T07:59:00Z'))).toBe(false);
    expect(containsTime(office, at('2026-01-05T16:00:00Z'))).toBe(false);
  });

  it('weekdays, months and years are inclusive ranges; negative days count from the month’s end', () => {
    const lastDays = { daysOfMonth: [parseRange('-2:-1', 'days_of_month')] };
    expect(containsTime(lastDays, at('2026-02-27T12:00:00Z'))).toBe(true);
    expect(containsTime(lastDays, at('2026-02-26T12:00:00Z'))).toBe(false);
    const weekend = {
      weekdays: [parseRange('saturday:sunday'.replace('saturday:sunday', 'saturday'), 'weekdays'), parseRange('sunday', 'weekdays')],
    };
    expect(containsTime(weekend, at('2026-01-03T12:00:00Z'))).toBe(true); // a Saturday
    expect(containsTime(weekend, at('2026-01-05T12:00:00Z'))).toBe(false); // a Monday
    const summer = { months: [parseRange('june:august', 'months')], years: [parseRange('2026', 'years')] };
    expect(containsTime(summer, at('2026-07-01T00:00:00Z'))).toBe(true);
    expect(containsTime(summer, at('2027-07-01T00:00:00Z'))).toBe(false);
  });

  it('refuses what Alertmanager refuses, naming the field', () => {
    expect(() => parseRange('friday:monday', 'weekdays')).toThrow(/start of the range is after its end/);
    expect(() => parseClock('25:00')).toThrow(/not a time of day/);
    expect(() =>
      parseConfig(`alerts:
  route: { receiver: hook, routes: [{ receiver: nobody, mute_time_intervals: [never-defined] }] }
  receivers: [{ name: hook, webhook_configs: [{ url: "http://127.0.0.1:1/" }] }]
`),
    ).toThrow(
      /routes\[0\]\.receiver: no receiver named "nobody"[\s\S]*routes\[0\]\.mute_time_intervals: no time interval named "never-defined"/,
    );
  });
});
