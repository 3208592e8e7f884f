import { formatDuration } from '../../../config/duration.js';
import { human } from '../prometheus-twin.js';
import type { AlertRule, Candidate, RuleContext } from '../rule.js';
import { formatSeconds } from './series-rule.js';

/** Outcomes that mean a notification never reached the receiver and never will. */
const LOST_OUTCOMES = new Set(['rejected', 'expired']);

interface ReceiverMemory {
  lost: number;
  lastLostMs?: number;
}

/**
 * A broken pager path must not be invisible: a receiver that rejected (4xx) or expired a
 * notification within `window`, or whose oldest queued notification is older than `max_queue_age`.
 * Routing sends this alert to every receiver but the failing one.
 */
export const avaxmonNotificationsFailing: AlertRule = {
  name: 'AvaxmonNotificationsFailing',
  defaultFor: '0s',
  severity: 'critical',
  params: {
    window: { kind: 'duration', default: 900, help: 'a rejected or expired notification keeps the alert firing this long' },
    max_queue_age: { kind: 'duration', default: 600, help: 'fires when the receiver’s oldest queued notification is older than this' },
  },
  sources: [{ metric: 'avaxmon_notification_receiver_oldest_queued_age_seconds', labels: ['receiver'] }],
  // Receivers belong to no target.
  fleetReads: [
    'avaxmon_notification_receiver_oldest_queued_age_seconds',
    'avaxmon_notifications_total',
    'avaxmon_notifications_dropped_total',
  ],
  prometheus: {
    group: 'avaxmon-self',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel, p }) => `
          sum by (job, instance, receiver) (increase(avaxmon_notifications_total{${sel}, outcome=~"rejected|expired"}[${formatDuration(p.window * 1000)}])) > 0
          or
          sum by (job, instance, receiver) (increase(avaxmon_notifications_dropped_total{${sel}}[${formatDuration(p.window * 1000)}])) > 0
          or
          max by (job, instance, receiver) (avaxmon_notification_receiver_oldest_queued_age_seconds{${sel}}) > ${p.max_queue_age}
        `,
        summary: () => `Notifications to receiver {{ $labels.receiver }} are failing`,
        description: ({ p }) =>
          `avaxmon at {{ $labels.instance }} cannot deliver to receiver {{ $labels.receiver }}: it rejected (4xx), expired or dropped (full outbox) a notification within ${human(p.window)}, or its oldest queued notification has waited more than ${human(p.max_queue_age)}. Route this alert around that receiver.`,
      },
    ],
  },
  description:
    'A receiver rejected (4xx) or expired a notification, or the full outbox dropped one of its notifications, within `window` (15m), or its oldest queued notification is older than `max_queue_age` (10m); sent to every other receiver.',
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    for (const receiver of receiversIn(ctx)) {
      const oldestQueuedAge = ctx.samples.valueOf('avaxmon_notification_receiver_oldest_queued_age_seconds', { receiver }) ?? 0;
      const lostRecently = recordLost(ctx, receiver);
      const stuck = oldestQueuedAge > ctx.params.max_queue_age;
      if (!lostRecently && !stuck) continue;
      const reasons = [
        ...(lostRecently ? [`it rejected, expired or dropped a notification within the last ${formatSeconds(ctx.params.window)}`] : []),
        ...(stuck ? [`its oldest queued notification has waited ${formatSeconds(oldestQueuedAge)}`] : []),
      ];
      candidates.push({
        labels: { receiver },
        severity: 'critical',
        summary: `Notifications to receiver ${receiver} are failing`,
        description: `Alerts are not reaching receiver ${receiver}: ${reasons.join('; ')}. Its last error is on avaxmon's status page and in its log.`,
      });
    }
    return candidates;
  },
};

/** Every receiver any of the rule's families names: one dropped from the config still has its counters. */
function receiversIn(ctx: RuleContext): Set<string> {
  const receivers = new Set<string>();
  for (const family of avaxmonNotificationsFailing.fleetReads!) {
    for (const sample of ctx.samples.all(family)) if (sample.labels.receiver !== undefined) receivers.add(sample.labels.receiver);
  }
  return receivers;
}

/** True when the receiver's count of lost notifications grew within `window`. */
function recordLost(ctx: RuleContext, receiver: string): boolean {
  const lost = [
    ...ctx.samples.where('avaxmon_notifications_total', { receiver }).filter((sample) => LOST_OUTCOMES.has(sample.labels.outcome)),
    // Dropped from a full outbox (alerts.max_queued_notifications): lost as surely as a rejection.
    ...ctx.samples.where('avaxmon_notifications_dropped_total', { receiver }),
  ].reduce((sum, sample) => sum + sample.value, 0);
  const memory = (ctx.memory.get(receiver) as ReceiverMemory | undefined) ?? { lost: 0 };
  if (lost > memory.lost) memory.lastLostMs = ctx.nowMs;
  memory.lost = lost;
  ctx.memory.set(receiver, memory);
  return memory.lastLostMs !== undefined && ctx.nowMs - memory.lastLostMs < ctx.params.window * 1000;
}
