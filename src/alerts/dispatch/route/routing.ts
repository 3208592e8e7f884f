import type { ReceiverConfig } from '../../../config/alerts-schema.js';
import { timeMuted } from '../time-mute/time-mute.js';
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

/** Routed and not muted by time now: the receivers a notification goes to. */
export function routesNow(receiver: ReceiverConfig, labels: Readonly<Record<string, string>>, nowMs: number): boolean {
  return routes(receiver, labels) && !timeMuted(receiver, nowMs);
}
