import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import { escapeHtml } from '../../../../server/html.js';
import type { AlertPayload } from '../payload.js';
import { fitBlocks } from './group.js';
import { extraLabels, groupHeadline, headline, postJson, type Receiver } from './receiver.js';

/** The longest prefix of `text` whose escaped form (plus the cut mark) fits in `max` characters. */
function escapeWithin(text: string, max: number): string {
  const escaped = escapeHtml(text);
  if (escaped.length <= max) return escaped;
  let length = 0;
  let end = 0;
  for (const char of text) {
    const size = escapeHtml(char).length;
    if (length + size > max - 1) break;
    length += size;
    end += char.length;
  }
  return `${escapeHtml(text.slice(0, end))}…`;
}

export const TELEGRAM_API_URL = 'https://api.telegram.org';
/** sendMessage takes at most 4,096 characters of text. */
export const TELEGRAM_MAX_TEXT = 4096;
/** One alert's description never takes the whole message. */
const MAX_DESCRIPTION = 1500;

/** A Telegram bot's sendMessage, in Telegram's HTML parse mode; a group is cut at whole alerts. */
export function createTelegramReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(group, ctx) {
      const single = group.notifications.length === 1;
      const head = `<b>${escapeHtml(groupHeadline(group))}</b>`;
      const blocks = group.notifications.map((notification) => block(notification.alert, single ? undefined : headline(notification)));
      const body = {
        chat_id: config.chatId,
        text: fitBlocks(head, blocks, '\n\n', TELEGRAM_MAX_TEXT),
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      };
      const base = (config.apiUrl ?? TELEGRAM_API_URL).replace(/\/$/, '');
      return postJson(ctx, config, { url: `${base}/bot${config.botToken}/sendMessage`, body: JSON.stringify(body) });
    },
  };
}

/** Escapes after cutting, so no entity or tag is ever cut in half. */
function block(alert: AlertPayload, title: string | undefined): string {
  const labels = extraLabels(alert).map(([key, value]) => `${escapeWithin(key, 100)}=${escapeWithin(value, 300)}`);
  return [
    ...(title ? [`<b>${escapeHtml(title)}</b>`] : []),
    escapeWithin(alert.annotations.summary, 300),
    escapeWithin(alert.annotations.description, MAX_DESCRIPTION),
    ...(labels.length > 0 ? [labels.join(' ')] : []),
    `<a href="${escapeHtml(alert.annotations.runbook_url)}">Runbook</a>`,
  ].join('\n');
}
