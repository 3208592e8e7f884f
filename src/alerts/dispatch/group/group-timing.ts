import type { Grouping } from '../../../config/alerts-schema.js';

/**
 * When a group's next notification is due, as in Alertmanager's aggregation groups: group_wait after
 * its oldest change while the group has never flushed; then on a fixed tick, every group_interval
 * after its first flush, the first tick at or after its oldest change.
 */
export function flushDueMs(grouping: Grouping, oldestMs: number, firstFlushMs: number | undefined): number {
  if (firstFlushMs === undefined) return oldestMs + grouping.waitMs;
  if (grouping.intervalMs <= 0) return oldestMs;
  const ticks = Math.max(0, Math.ceil((oldestMs - firstFlushMs) / grouping.intervalMs));
  return firstFlushMs + ticks * grouping.intervalMs;
}
