import type { ReceiverConfig } from '../../../config/alerts-schema.js';
import { containsTime } from '../time-mute/time-interval.js';
import type { Severity } from '../../evaluation/rule.js';

/** The alert about a failing receiver; it goes to every other receiver. */
export const NOTIFICATIONS_FAILING_RULE = 'AvaxmonNotificationsFailing';

/**
 * A receiver takes an alert when its route (alerts.route) takes it, or, without a route, when its
 * severity is selected and every label matcher equals. A failing receiver is reported to all the
 * others, whatever they select: one of them may be the only way left.
 */
export function routes(receiver: ReceiverConfig, labels: Readonly<Record<string, string>>): boolean {
  if (labels.alertname === NOTIFICATIONS_FAILING_RULE) return labels.receiver !== receiver.name;
  if (receiver.route) return receiver.route.root().match(labels).includes(receiver.route);
  if (!receiver.severities.includes(labels.severity as Severity)) return false;
  return Object.entries(receiver.match).every(([key, value]) => labels[key] === value);
}

/**
 * Whether the receiver's route is muted at `nowMs` by its mute_time_intervals, or outside its
 * active_time_intervals: then nothing is sent to it, firing or resolved, as in Alertmanager.
 */
export function timeMuted(receiver: ReceiverConfig, nowMs: number): boolean {
  if (receiver.muteTimeIntervals?.some((interval) => containsTime(interval, nowMs))) return true;
  return receiver.activeTimeIntervals !== undefined && !receiver.activeTimeIntervals.some((interval) => containsTime(interval, nowMs));
}

/** Routed and not muted by time now: the receivers a notification goes to. */
export function routesNow(receiver: ReceiverConfig, labels: Readonly<Record<string, string>>, nowMs: number): boolean {
  return routes(receiver, labels) && !timeMuted(receiver, nowMs);
}
