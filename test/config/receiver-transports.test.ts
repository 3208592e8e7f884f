import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGERDUTY_EVENTS_URL } from '../../src/alerts/dispatch/notify/receivers/pagerduty.js';
import { TELEGRAM_API_URL } from '../../src/alerts/dispatch/notify/receivers/telegram.js';
import { parseConfig } from '../../src/config/load.js';
import { receiverTransports } from '../../src/config/transports.js';

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-receiver-transports-'));
const PROXY = 'http://proxy.internal:3128';

function transportsOf(receiver: string): Map<string, unknown> {
  const config = parseConfig(`alerts:\n  state_dir: ${dir}\n  receivers:\n    - ${receiver}\n`, { env: {} });
  return receiverTransports(config.alerts!.receivers);
}

describe("a receiver's tls_config and proxy_url", () => {
  it('reach the fixed API a receiver posts to when its config names no URL', () => {
    const telegram = transportsOf(`{ name: tg, type: telegram, bot_token: "1:x", chat_id: 1, proxy_url: "${PROXY}" }`);
    expect([...telegram.keys()]).toEqual([new URL(TELEGRAM_API_URL).origin]);
    const pagerduty = transportsOf(`{ name: pd, type: pagerduty, routing_key: k, proxy_url: "${PROXY}" }`);
    expect([...pagerduty.keys()]).toEqual([new URL(PAGERDUTY_EVENTS_URL).origin]);
  });

  it('reach the URLs a receiver names', () => {
    const webhook = transportsOf(`{ name: hook, type: webhook, url: "https://hooks.example:8443/x", proxy_url: "${PROXY}" }`);
    expect([...webhook.keys()]).toEqual(['https://hooks.example:8443']);
  });
});
