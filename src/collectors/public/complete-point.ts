import type { MetricPoint, TimeInterval } from '../../clients/metrics-api.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

/** End (exclusive) of the interval a data point covers, in Unix seconds; months vary in length. */
export function intervalEndSeconds(startSeconds: number, interval: TimeInterval): number {
  if (interval === 'hour') return startSeconds + HOUR;
  if (interval === 'day') return startSeconds + DAY;
  if (interval === 'week') return startSeconds + 7 * DAY;
  const start = new Date(startSeconds * 1000);
  return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1) / 1000;
}

export function isComplete(point: MetricPoint, interval: TimeInterval, nowSeconds: number): boolean {
  return intervalEndSeconds(point.timestamp, interval) <= nowSeconds;
}

/**
 * The newest point whose interval has ended. The point of the current interval is left out: the
 * API refreshes it several times an hour, so its value is a partial sum (a day's txCount at 10:00
 * is far below a whole day's) and would read as a drop on every dashboard and alert.
 */
export function newestCompletePoint(points: readonly MetricPoint[], interval: TimeInterval, nowSeconds: number): MetricPoint | undefined {
  let newest: MetricPoint | undefined;
  for (const point of points) {
    if (isComplete(point, interval, nowSeconds) && (newest === undefined || point.timestamp > newest.timestamp)) newest = point;
  }
  return newest;
}
