import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RECEIVER_TYPES } from '../../src/config/alerts-schema.js';
import { loadConfigFile } from '../../src/config/load.js';
import { ruleNames } from '../../src/alerts/rules/index.js';
import { collectorNames } from '../../src/collectors/index.js';

const FILE = new URL('../../config.example.yaml', import.meta.url).pathname;
const ENV = {
  NODE_TOKEN: 'n',
  AVAX_DATA_API_KEY: 'key',
  WEBHOOK_HMAC_SECRET: 'hmac',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/x',
  DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/x',
  PAGERDUTY_ROUTING_KEY: 'routing',
  TELEGRAM_BOT_TOKEN: 'bot',
};

describe('config.example.yaml', () => {
  const raw = parse(readFileSync(FILE, 'utf8')) as {
    targets: Array<{ collectors: Record<string, unknown> }>;
    alerts: { rules: Record<string, unknown>; receivers: Array<{ type: string }> };
  };

  it('is a valid config', () => {
    const config = loadConfigFile(FILE, { env: ENV });
    expect(config.targets.map((target) => target.name)).toEqual(['validator-1', 'rpc-node']);
  });

  it('shows every collector, every built-in rule and every receiver type', () => {
    expect(Object.keys(raw.targets[0].collectors).sort()).toEqual([...collectorNames].sort());
    expect(Object.keys(raw.alerts.rules).sort()).toEqual([...ruleNames].sort());
    expect(new Set(raw.alerts.receivers.map((receiver) => receiver.type))).toEqual(new Set(RECEIVER_TYPES));
  });
});
