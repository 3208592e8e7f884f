import { createHash } from 'node:crypto';
import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import { common, groupStatus, labelSetText, alertsOf, type OutgoingGroup } from './group.js';
import { groupHeadline, postJson, type Receiver } from './receiver.js';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
/** PagerDuty keeps custom_details small; past this many, the rest are counted. */
const MAX_ALERTS_DETAILED = 20;

/**
 * PagerDuty Events API v2, one event per group as Alertmanager's PagerDuty integration sends: the
 * dedup_key is the group's, so one incident follows the group, a repeat or a change updates it, and
 * it resolves only when no alert of the group fires any more.
 */
export function createPagerDutyReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(group, ctx) {
      const base = { routing_key: config.routingKey, dedup_key: groupDedupKey(group) };
      const alerts = alertsOf(group);
      const firing = alerts.filter((alert) => alert.status === 'firing');
      const event =
        groupStatus(alerts) === 'resolved'
          ? { ...base, event_action: 'resolve' }
          : {
              ...base,
              event_action: 'trigger',
              payload: {
                summary: (firing.length === 1 ? firing[0].annotations.summary : groupHeadline(group)).slice(0, 1024),
                source: common(firing.map((alert) => alert.labels)).target ?? 'avaxmon',
                severity:
                  ['critical', 'warning', 'info'].find((severity) => firing.some((alert) => alert.labels.severity === severity)) ?? 'info',
                timestamp: firing[0].startsAt,
                class: group.groupLabels.alertname ?? firing[0].labels.alertname,
                custom_details: {
                  firing: firing.length,
                  resolved: alerts.length - firing.length,
                  alerts: alerts
                    .slice(0, MAX_ALERTS_DETAILED)
                    .map((alert) => ({ status: alert.status, labels: alert.labels, description: alert.annotations.description })),
                  ...(alerts.length > MAX_ALERTS_DETAILED ? { more: alerts.length - MAX_ALERTS_DETAILED } : {}),
                },
              },
              links: firing[0].annotations.runbook_url ? [{ href: firing[0].annotations.runbook_url, text: 'Runbook' }] : [],
              client: 'avaxmon',
              ...(firing[0].generatorURL ? { client_url: firing[0].generatorURL } : {}),
            };
      return postJson(ctx, config, { url: config.urls[0] ?? config.apiUrl ?? PAGERDUTY_EVENTS_URL, body: JSON.stringify(event) });
    },
  };
}

/** One key per receiver and group (its group labels), stable across notifications and restarts. */
export function groupDedupKey(group: Pick<OutgoingGroup, 'receiver' | 'groupLabels'>): string {
  return createHash('sha256')
    .update(`${group.receiver}\n${labelSetText(group.groupLabels)}`)
    .digest('hex')
    .slice(0, 32);
}
