import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RECEIVER_TYPES } from '../../src/config/alerts-schema.js';
import { loadConfigFile, parseConfig } from '../../src/config/load.js';
import { ruleNames } from '../../src/alerts/evaluation/rules/index.js';
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

  // Every rule with its settings is in docs/alerting.md's generated table; the example tunes built-in rules only.
  it('shows every collector, built-in rules and every receiver type', () => {
    expect(Object.keys(raw.targets[0].collectors).sort()).toEqual([...collectorNames].sort());
    expect(Object.keys(raw.alerts.rules).filter((name) => !ruleNames.includes(name))).toEqual([]);
    expect(new Set(raw.alerts.receivers.map((receiver) => receiver.type))).toEqual(new Set(RECEIVER_TYPES));
  });
});

describe('config.minimal.yaml', () => {
  const MINIMAL = new URL('../../config.minimal.yaml', import.meta.url).pathname;
  const text = readFileSync(MINIMAL, 'utf8');

  it('is valid with no environment variables set: one local node, no secrets', () => {
    const config = parseConfig(text, { env: {} });
    expect(config.targets.map((target) => [target.name, target.url])).toEqual([['node', 'http://127.0.0.1:9650']]);
    expect(config.alerts).toBeUndefined();
  });

  it('turns on alerts to a local webhook when its commented alerts section is uncommented', () => {
    const [head, alertsBlock] = text.split(/^(?=# alerts:)/m);
    const uncommented = head + alertsBlock.replace(/^# /gm, '');
    const config = parseConfig(uncommented, { env: {} });
    expect(config.alerts?.receivers.map((receiver) => [receiver.name, receiver.type, receiver.urls])).toEqual([
      ['local-hook', 'webhook', ['http://127.0.0.1:9099/hook']],
    ]);
  });
});
