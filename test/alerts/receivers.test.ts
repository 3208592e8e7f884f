import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/alerts/evaluation/alert-record.js';
import type { AlertPayload } from '../../src/alerts/dispatch/notify/payload.js';
import { labelsFingerprint } from '../../src/alerts/dispatch/notify/receivers/alertmanager-identity.js';
import { groupDedupKey } from '../../src/alerts/dispatch/notify/receivers/pagerduty.js';
import { createReceiver } from '../../src/alerts/dispatch/notify/receivers/index.js';
import type { SendResult } from '../../src/alerts/dispatch/notify/receivers/receiver.js';
import { HttpClient } from '../../src/clients/http.js';
import { parseConfig } from '../../src/config/load.js';
import type { ReceiverConfig } from '../../src/config/alerts-schema.js';
import { startRecorder, type Recorder } from './recorder.js';

let server: Recorder;
const http = new HttpClient({ maxResponseBytes: 1 << 20 });
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-receivers-'));
beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await http.close();
  await server.close();
});

const labels = { alertname: 'AvalancheNodeUnhealthy', target: 'validator-1', severity: 'critical', chain: 'C' };
const alert = (status: 'firing' | 'resolved'): AlertPayload => ({
  fingerprint: fingerprintOf(labels),
  status,
  labels,
  annotations: {
    summary: 'Node validator-1 is unhealthy',
    description: 'failing checks: network',
    runbook_url: 'https://example.org/runbook',
  },
  startsAt: '2026-01-01T00:00:00.000Z',
  endsAt: status === 'resolved' ? '2026-01-01T00:05:00.000Z' : undefined,
});

function receiverConfig(yaml: string): ReceiverConfig {
  return parseConfig(`alerts:\n  state_dir: ${dir}\n  receivers:\n    - ${yaml}\n`).alerts!.receivers[0];
}

async function send(
  config: ReceiverConfig,
  status: 'firing' | 'resolved' = 'firing',
  nowMs = Date.now(),
): Promise<{ result: SendResult; request: Recorder['requests'][number] }> {
  const before = server.requests.length;
  const notification = { receiver: config.name, key: 'key-1', reminder: false, alert: alert(status) };
  const result = await createReceiver(config).send(
    { receiver: config.name, key: 'key-1', groupLabels: { alertname: notification.alert.labels.alertname }, notifications: [notification] },
    { http, nowMs },
  );
  return { result, request: server.requests[before] };
}

describe('receiver request shapes (loopback server)', () => {
  it('webhook: Alertmanager webhook payload, Idempotency-Key, HMAC over timestamp.body', async () => {
    const secretFile = join(dir, 'hmac');
    writeFileSync(secretFile, 's3cret-hmac\n');
    const nowMs = Date.parse('2026-01-01T00:01:00Z');
    const { result, request } = await send(
      receiverConfig(`{ name: hook, type: webhook, url: ${server.url}/hook, hmac_secret_file: ${secretFile} }`),
      'firing',
      nowMs,
    );
    expect(result.outcome).toBe('delivered');
    expect(request.path).toBe('/hook');
    expect(request.headers['idempotency-key']).toBe('key-1');
    expect(request.headers['x-avaxmon-timestamp']).toBe(String(nowMs / 1000));
    const expected = createHmac('sha256', 's3cret-hmac')
      .update(`${nowMs / 1000}.${request.body}`)
      .digest('hex');
    expect(request.headers['x-avaxmon-signature']).toBe(`sha256=${expected}`);
    expect(request.json).toMatchObject({
      version: '4',
      status: 'firing',
      receiver: 'hook',
      commonLabels: labels,
      alerts: [
        {
          status: 'firing',
          labels,
          startsAt: '2026-01-01T00:00:00Z',
          endsAt: '0001-01-01T00:00:00Z',
          fingerprint: labelsFingerprint(labels),
        },
      ],
    });
    expect((request.json as { groupKey: string }).groupKey).toContain('AvalancheNodeUnhealthy');
  });

  it('slack: incoming webhook text plus a coloured attachment', async () => {
    const { request } = await send(
      receiverConfig(`{ name: chat, type: slack, url: ${server.url}/services/T0AAA1111/B0BBB2222/xoxbSlackToken3333 }`),
      'resolved',
    );
    const body = request.json as { text: string; attachments: Array<{ color: string; title: string; text: string; fields: unknown[] }> };
    expect(request.path).toBe('/services/T0AAA1111/B0BBB2222/xoxbSlackToken3333');
    expect(body.text).toContain('RESOLVED');
    expect(body.attachments[0]).toMatchObject({ color: '#1a7f37', text: 'failing checks: network' });
    expect(body.attachments[0].fields).toContainEqual({ title: 'chain', value: 'C', short: true });
  });

  it('discord: embeds with a colour per severity, ?wait=true', async () => {
    const { request } = await send(
      receiverConfig(`{ name: disc, type: discord, url: ${server.url}/api/webhooks/112233445566778899/DiscordTokenAbcdef }`),
    );
    const body = request.json as { embeds: Array<{ color: number; title: string; url: string }> };
    expect(request.path).toBe('/api/webhooks/112233445566778899/DiscordTokenAbcdef?wait=true');
    expect(body.embeds[0]).toMatchObject({ color: 0xcf222e, title: 'Node validator-1 is unhealthy', url: 'https://example.org/runbook' });
  });

  it('pagerduty: Events API v2 trigger and resolve with one dedup_key per group', async () => {
    const keyFile = join(dir, 'pd');
    writeFileSync(keyFile, 'R0UTINGKEY0123456789\n');
    const config = receiverConfig(`{ name: pd, type: pagerduty, url: ${server.url}/v2/enqueue, routing_key_file: ${keyFile} }`);
    const trigger = (await send(config)).request.json;
    expect(trigger).toMatchObject({
      routing_key: 'R0UTINGKEY0123456789',
      event_action: 'trigger',
      dedup_key: groupDedupKey({ receiver: 'pd', groupLabels: { alertname: 'AvalancheNodeUnhealthy' } }),
      payload: { summary: 'Node validator-1 is unhealthy', source: 'validator-1', severity: 'critical', class: 'AvalancheNodeUnhealthy' },
    });
    const resolve = (await send(config, 'resolved')).request.json;
    expect(resolve).toEqual({
      routing_key: 'R0UTINGKEY0123456789',
      dedup_key: groupDedupKey({ receiver: 'pd', groupLabels: { alertname: 'AvalancheNodeUnhealthy' } }),
      event_action: 'resolve',
    });
    // One alert of two resolving keeps the group's incident open: a trigger, not a resolve.
    const notification = (status: 'firing' | 'resolved', target: string) => ({
      receiver: 'pd',
      key: target,
      reminder: false,
      alert: { ...alert(status), labels: { ...labels, target } },
    });
    const mixed = await createReceiver(config).send(
      {
        receiver: 'pd',
        key: 'k',
        groupLabels: { alertname: 'AvalancheNodeUnhealthy' },
        notifications: [notification('resolved', 'validator-1'), notification('firing', 'validator-2')],
      },
      { http, nowMs: Date.now() },
    );
    expect(mixed.outcome).toBe('delivered');
    expect(server.requests.at(-1)!.json).toMatchObject({
      event_action: 'trigger',
      payload: { source: 'validator-2', custom_details: { firing: 1, resolved: 1 } },
    });
  });

  it('telegram: bot sendMessage with chat_id and HTML text', async () => {
    const { request } = await send(
      receiverConfig(`{ name: tg, type: telegram, api_url: ${server.url}, bot_token: "123:ABCtoken", chat_id: -100123 }`),
    );
    expect(request.path).toBe('/bot123:ABCtoken/sendMessage');
    expect(request.json).toMatchObject({ chat_id: '-100123', parse_mode: 'HTML' });
    expect((request.json as { text: string }).text).toContain('<b>');
  });

  it('alertmanager: POST /api/v2/alerts with startsAt and endsAt to every URL', async () => {
    const second = await startRecorder();
    try {
      const nowMs = Date.now();
      const { result, request } = await send(
        receiverConfig(`{ name: am, type: alertmanager, urls: [${server.url}, ${second.url}] }`),
        'firing',
        nowMs,
      );
      expect(result.outcome).toBe('delivered');
      expect(request.path).toBe('/api/v2/alerts');
      const [sent] = request.json as Array<{ labels: unknown; startsAt: string; endsAt: string }>;
      expect(sent.labels).toEqual(labels);
      expect(sent.startsAt).toBe('2026-01-01T00:00:00.000Z');
      expect(Date.parse(sent.endsAt)).toBeGreaterThan(nowMs);
      expect(second.requests).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('classifies answers: 429 with Retry-After retries after it, 400 is rejected, refused connection retries', async () => {
    const config = receiverConfig(`{ name: hook2, type: webhook, url: ${server.url}/x }`);
    server.respond = () => ({ status: 429, headers: { 'retry-after': '7' } });
    expect((await send(config)).result).toMatchObject({ outcome: 'retry', retryAfterMs: 7000 });
    server.respond = () => ({ status: 400, body: 'bad payload' });
    expect((await send(config)).result).toMatchObject({ outcome: 'rejected' });
    server.respond = () => ({ status: 200 });
    const refused = receiverConfig('{ name: hook3, type: webhook, url: "http://127.0.0.1:9/x", timeout: 1s }');
    expect((await send(refused)).result.outcome).toBe('retry');
  });
});
