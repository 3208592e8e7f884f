import type { ReceiverConfig } from '../../../config/alerts-schema.js';
import { containsTime } from './time-interval.js';

/**
 * Whether the receiver's route is muted at `nowMs` by its mute_time_intervals, or outside its
 * active_time_intervals: then nothing is sent to it, firing or resolved, as in Alertmanager.
 */
export function timeMuted(receiver: ReceiverConfig, nowMs: number): boolean {
  if (receiver.muteTimeIntervals?.some((interval) => containsTime(interval, nowMs))) return true;
  return receiver.activeTimeIntervals !== undefined && !receiver.activeTimeIntervals.some((interval) => containsTime(interval, nowMs));
}
