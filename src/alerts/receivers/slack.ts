import type { ReceiverConfig } from '../../config/alerts-schema.js';
import { extraLabels, headline, postJson, type Receiver } from './receiver.js';

const COLOR: Readonly<Record<string, string>> = { critical: '#cf222e', warning: '#bf8700', info: '#0969da', resolved: '#1a7f37' };

/** A Slack incoming webhook: a fallback `text` plus one coloured attachment. */
export function createSlackReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(notification, ctx) {
      const { alert } = notification;
      const title = headline(notification);
      const fields = [
        { title: 'Target', value: alert.labels.target ?? '-', short: true },
        { title: 'Severity', value: alert.labels.severity, short: true },
        ...extraLabels(alert).map(([key, value]) => ({ title: key, value, short: true })),
      ];
      const body = {
        text: `${title}: ${alert.annotations.summary}`,
        attachments: [
          {
            color: COLOR[alert.status === 'resolved' ? 'resolved' : alert.labels.severity] ?? COLOR.info,
            title,
            title_link: alert.annotations.runbook_url,
            text: alert.annotations.description,
            fields,
            footer: 'avaxmon',
            ts: Math.floor(Date.parse(alert.endsAt ?? alert.startsAt) / 1000),
          },
        ],
      };
      return postJson(ctx, config, { url: config.urls[0], body: JSON.stringify(body) });
    },
  };
}
