import type { ReceiverConfig } from '../../config/alerts-schema.js';
import type { AlertPayload } from '../alert.js';
import { postJson, type Receiver, type SendContext, type SendResult } from './receiver.js';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

/**
 * PagerDuty Events API v2: trigger and resolve events keyed by dedup_key = the alert fingerprint,
 * so PagerDuty folds reminders and retries into one incident and the resolve closes it. The API takes
 * one event per request, so a group is sent alert by alert; a retry re-sends events PagerDuty dedups.
 */
export function createPagerDutyReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    async send(group, ctx) {
      for (const { alert } of group.notifications) {
        const result = await sendEvent(config, alert, ctx);
        if (result.outcome !== 'delivered') return result;
      }
      return { outcome: 'delivered' };
    },
  };
}

function sendEvent(config: ReceiverConfig, alert: AlertPayload, ctx: SendContext): Promise<SendResult> {
  const base = { routing_key: config.routingKey, dedup_key: alert.fingerprint };
  const event =
    alert.status === 'resolved'
      ? { ...base, event_action: 'resolve' }
      : {
          ...base,
          event_action: 'trigger',
          payload: {
            summary: alert.annotations.summary.slice(0, 1024),
            source: alert.labels.target ?? 'avaxmon',
            severity: alert.labels.severity,
            timestamp: alert.startsAt,
            component: alert.labels.chain ?? alert.labels.subnet ?? alert.labels.check,
            group: alert.labels.target,
            class: alert.labels.alertname,
            custom_details: { description: alert.annotations.description, labels: alert.labels },
          },
          links: [{ href: alert.annotations.runbook_url, text: 'Runbook' }],
          client: 'avaxmon',
          ...(alert.generatorURL ? { client_url: alert.generatorURL } : {}),
        };
  return postJson(ctx, config, { url: config.urls[0] ?? config.apiUrl ?? PAGERDUTY_EVENTS_URL, body: JSON.stringify(event) });
}
