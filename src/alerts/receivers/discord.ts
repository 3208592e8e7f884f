import type { ReceiverConfig } from '../../config/alerts-schema.js';
import { extraLabels, headline, postJson, type Receiver } from './receiver.js';

/** Embed colours are integers: red, amber, blue, and green for a resolve. */
export const DISCORD_COLOR: Readonly<Record<string, number>> = { critical: 0xcf222e, warning: 0xbf8700, info: 0x0969da, resolved: 0x1a7f37 };

/** A Discord webhook with one embed per notification; `?wait=true` makes Discord confirm the write. */
export function createDiscordReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(notification, ctx) {
      const { alert } = notification;
      const fields = [
        { name: 'Target', value: alert.labels.target ?? '-', inline: true },
        { name: 'Severity', value: alert.labels.severity, inline: true },
        ...extraLabels(alert).map(([name, value]) => ({ name, value, inline: true })),
      ];
      const body = {
        username: 'avaxmon',
        content: headline(notification),
        embeds: [
          {
            title: alert.annotations.summary.slice(0, 256),
            description: alert.annotations.description.slice(0, 4096),
            url: alert.annotations.runbook_url,
            color: DISCORD_COLOR[alert.status === 'resolved' ? 'resolved' : alert.labels.severity] ?? DISCORD_COLOR.info,
            fields: fields.slice(0, 25),
            timestamp: alert.endsAt ?? alert.startsAt,
            footer: { text: `avaxmon · ${alert.fingerprint}` },
          },
        ],
      };
      const url = new URL(config.urls[0]);
      url.searchParams.set('wait', 'true');
      return postJson(ctx, config, { url: url.toString(), body: JSON.stringify(body) });
    },
  };
}
