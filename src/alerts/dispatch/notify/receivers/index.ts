import type { ReceiverConfig, ReceiverType } from '../../../../config/alerts-schema.js';
import { createAlertmanagerReceiver } from './alertmanager.js';
import { createDiscordReceiver } from './discord.js';
import { createEmailReceiver } from './email.js';
import { createOpsgenieReceiver } from './opsgenie.js';
import { createPagerDutyReceiver } from './pagerduty.js';
import type { Receiver } from './receiver.js';
import { createSlackReceiver } from './slack.js';
import { createTelegramReceiver } from './telegram.js';
import { createWebhookReceiver } from './webhook.js';

const factories: Readonly<Record<ReceiverType, (config: ReceiverConfig) => Receiver>> = {
  webhook: createWebhookReceiver,
  slack: createSlackReceiver,
  discord: createDiscordReceiver,
  pagerduty: createPagerDutyReceiver,
  opsgenie: createOpsgenieReceiver,
  email: createEmailReceiver,
  telegram: createTelegramReceiver,
  alertmanager: createAlertmanagerReceiver,
};

export function createReceiver(config: ReceiverConfig): Receiver {
  return factories[config.type](config);
}
