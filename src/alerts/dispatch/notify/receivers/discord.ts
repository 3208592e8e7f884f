import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import type { AlertPayload } from '../payload.js';
import { cut, moreAlerts } from './group.js';
import { extraLabels, groupHeadline, postJson, type Receiver } from './receiver.js';

/** Embed colours are integers: red, amber, blue, and green for a resolve. */
export const DISCORD_COLOR: Readonly<Record<string, number>> = {
  critical: 0xcf222e,
  warning: 0xbf8700,
  info: 0x0969da,
  resolved: 0x1a7f37,
};

/** Discord's documented limits (discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  embedsTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
} as const;

interface Embed {
  title: string;
  description: string;
  url?: string;
  color: number;
  fields: Array<{ name: string; value: string; inline: boolean }>;
  timestamp: string;
  footer: { text: string };
}

/** A Discord webhook with one embed per alert (up to 10, 6,000 characters in all); `?wait=true` makes Discord confirm the write. */
export function createDiscordReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(group, ctx) {
      const embeds: Embed[] = [];
      let total = 0;
      for (const { alert } of group.notifications) {
        const next = embedOf(alert);
        if (embeds.length === DISCORD_LIMITS.embeds || total + embedLength(next) > DISCORD_LIMITS.embedsTotal) break;
        embeds.push(next);
        total += embedLength(next);
      }
      const hidden = group.notifications.length - embeds.length;
      const body = {
        username: 'avaxmon',
        content: cut(`${groupHeadline(group)}${hidden > 0 ? `\n${moreAlerts(hidden)}` : ''}`, DISCORD_LIMITS.content),
        embeds,
      };
      const url = new URL(config.urls[0]);
      url.searchParams.set('wait', 'true');
      return postJson(ctx, config, { url: url.toString(), body: JSON.stringify(body) });
    },
  };
}

function embedOf(alert: AlertPayload): Embed {
  const fields = [
    { name: 'Target', value: alert.labels.target ?? '-', inline: true },
    { name: 'Severity', value: alert.labels.severity, inline: true },
    ...extraLabels(alert).map(([name, value]) => ({ name, value, inline: true })),
  ];
  return {
    title: cut(alert.annotations.summary, DISCORD_LIMITS.title),
    // The description gets what a full embed leaves: a group of long alerts still shows several.
    description: cut(alert.annotations.description, 1500),
    url: alert.annotations.runbook_url,
    color: DISCORD_COLOR[alert.status === 'resolved' ? 'resolved' : alert.labels.severity] ?? DISCORD_COLOR.info,
    fields: fields.slice(0, DISCORD_LIMITS.fields).map((field) => ({
      name: cut(field.name, DISCORD_LIMITS.fieldName),
      value: cut(field.value || '-', DISCORD_LIMITS.fieldValue),
      inline: field.inline,
    })),
    timestamp: alert.endsAt ?? alert.startsAt,
    footer: { text: cut(`avaxmon · ${alert.fingerprint}`, DISCORD_LIMITS.footer) },
  };
}

/** What counts toward the 6,000 characters: title, description, field names and values, footer. */
function embedLength(embed: Embed): number {
  return (
    embed.title.length +
    embed.description.length +
    embed.footer.text.length +
    embed.fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0)
  );
}
