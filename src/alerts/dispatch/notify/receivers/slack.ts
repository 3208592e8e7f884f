import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import type { AlertPayload } from '../payload.js';
import { cut, moreAlerts } from './group.js';
import { extraLabels, groupHeadline, headline, postJson, type Receiver } from './receiver.js';

const COLOR: Readonly<Record<string, string>> = { critical: '#cf222e', warning: '#bf8700', info: '#0969da', resolved: '#1a7f37' };
/** Slack shows at most 100 attachments and advises 20; longer groups end with "... N more alerts". */
const MAX_ATTACHMENTS = 20;
/** Slack truncates message text past 40,000 characters; attachment text is kept well below. */
const MAX_TEXT = 3_000;

/** Slack's mrkdwn needs exactly these three escaped (api.slack.com "Escaping text"). */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A Slack incoming webhook: a fallback `text` plus one coloured attachment per alert of the group. */
export function createSlackReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(group, ctx) {
      const shown = group.notifications.slice(0, MAX_ATTACHMENTS);
      const hidden = group.notifications.length - shown.length;
      const title = groupHeadline(group);
      const summary = group.notifications.length === 1 ? `: ${group.notifications[0].alert.annotations.summary}` : '';
      const body = {
        text: escapeSlack(cut(`${title}${summary}${hidden > 0 ? ` (${moreAlerts(hidden)})` : ''}`, MAX_TEXT)),
        attachments: [
          ...shown.map((notification) => attachment(headline(notification), notification.alert)),
          ...(hidden > 0 ? [{ color: COLOR.info, text: moreAlerts(hidden), footer: 'avaxmon' }] : []),
        ],
      };
      return postJson(ctx, config, { url: config.urls[0], body: JSON.stringify(body) });
    },
  };
}

function attachment(title: string, alert: AlertPayload): Record<string, unknown> {
  const fields = [
    { title: 'Target', value: alert.labels.target ?? '-', short: true },
    { title: 'Severity', value: alert.labels.severity, short: true },
    ...extraLabels(alert).map(([key, value]) => ({ title: key, value, short: true })),
  ];
  return {
    color: COLOR[alert.status === 'resolved' ? 'resolved' : alert.labels.severity] ?? COLOR.info,
    title: escapeSlack(title),
    title_link: alert.annotations.runbook_url,
    text: escapeSlack(cut(alert.annotations.description, MAX_TEXT)),
    fields: fields.map((field) => ({ ...field, title: escapeSlack(field.title), value: escapeSlack(cut(field.value, 500)) })),
    footer: 'avaxmon',
    ts: Math.floor(Date.parse(alert.endsAt ?? alert.startsAt) / 1000),
  };
}
