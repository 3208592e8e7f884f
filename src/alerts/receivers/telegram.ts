import type { ReceiverConfig } from '../../config/alerts-schema.js';
import { escapeHtml } from '../../server/html.js';
import { extraLabels, headline, postJson, type Receiver } from './receiver.js';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

/** A Telegram bot's sendMessage, in Telegram's HTML parse mode. */
export function createTelegramReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(notification, ctx) {
      const { alert } = notification;
      const labels = extraLabels(alert).map(([key, value]) => `${escapeHtml(key)}=${escapeHtml(value)}`);
      const lines = [
        `<b>${escapeHtml(headline(notification))}</b>`,
        escapeHtml(alert.annotations.summary),
        escapeHtml(alert.annotations.description),
        ...(labels.length > 0 ? [labels.join(' ')] : []),
        `<a href="${escapeHtml(alert.annotations.runbook_url)}">Runbook</a>`,
      ];
      const body = { chat_id: config.chatId, text: lines.join('\n'), parse_mode: 'HTML', disable_web_page_preview: true };
      const base = (config.apiUrl ?? TELEGRAM_API_URL).replace(/\/$/, '');
      return postJson(ctx, config, { url: `${base}/bot${config.botToken}/sendMessage`, body: JSON.stringify(body) });
    },
  };
}
