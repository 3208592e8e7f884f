import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/alerts/evaluation/alert-record.js';
import type { AlertPayload } from '../../src/alerts/dispatch/notify/payload.js';
import type { OutgoingGroup } from '../../src/alerts/dispatch/notify/receivers/group.js';
import { createReceiver } from '../../src/alerts/dispatch/notify/receivers/index.js';
import { HttpClient } from '../../src/clients/http.js';
import { parseConfig } from '../../src/config/load.js';
import type { ReceiverConfig } from '../../src/config/alerts-schema.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { startRecorder, type Recorder } from './recorder.js';
import { drained, sec, startAlerting, targetUp, type Harness } from './harness.js';

let server: Recorder;
const http = new HttpClient({ maxResponseBytes: 1 << 20 });
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-limits-'));
const harnesses: Harness[] = [];
beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  for (const harness of harnesses) await harness.close();
  await http.close();
  await server.close();
});

function receiverConfig(yaml: string): ReceiverConfig {
  return parseConfig(`alerts:\n  state_dir: ${dir}\n  receivers:\n    - ${yaml}\n`).alerts!.receivers[0];
}

function alertOf(index: number, description: string, extra: Record<string, string> = {}): AlertPayload {
  const labels = { alertname: 'AvalancheNodeUnhealthy', target: `validator-${index}`, severity: 'critical', ...extra };
  return {
    fingerprint: fingerprintOf(labels),
    status: 'firing',
    labels,
    annotations: { summary: `Node validator-${index} is unhealthy`, description, runbook_url: 'https://example.org/runbook' },
    startsAt: '2026-01-01T00:00:00.000Z',
  };
}

function groupOf(alerts: readonly AlertPayload[]): OutgoingGroup {
  return {
    receiver: 'r',
    key: 'group-key',
    groupLabels: { alertname: 'AvalancheNodeUnhealthy' },
    notifications: alerts.map((alert, index) => ({ receiver: 'r', key: `k${index}`, reminder: false, alert })),
  };
}

async function sendGroup(config: ReceiverConfig, alerts: readonly AlertPayload[]): Promise<Recorder['requests'][number]> {
  const before = server.requests.length;
  const result = await createReceiver(config).send(groupOf(alerts), { http, nowMs: Date.now() });
  expect(result.outcome).toBe('delivered');
  return server.requests[before];
}

const many = (count: number, length: number, extra: Record<string, string> = {}) =>
  Array.from({ length: count }, (_, index) => alertOf(index, `${'x'.repeat(length)} end`, extra));

describe('receiver limits, against the payload a loopback receiver recorded', () => {
  it('slack escapes & < > in every text it sends', async () => {
    const request = await sendGroup(receiverConfig(`{ name: s, type: slack, url: ${server.url}/slack }`), [
      alertOf(0, 'peers <10 & falling > fast', { check: '<bls>' }),
    ]);
    const body = request.json as { text: string; attachments: Array<{ text: string; title: string; fields: Array<{ value: string }> }> };
    expect(body.attachments[0].text).toBe('peers &lt;10 &amp; falling &gt; fast');
    expect(body.attachments[0].fields.map((field) => field.value)).toContain('&lt;bls&gt;');
    expect(request.body).not.toMatch(/<bls>|<10/);
  });

  it('slack cuts a group past 20 attachments with "... N more alerts"', async () => {
    const request = await sendGroup(receiverConfig(`{ name: s, type: slack, url: ${server.url}/slack }`), many(25, 10));
    const body = request.json as { text: string; attachments: Array<{ text: string }> };
    expect(body.attachments).toHaveLength(21);
    expect(body.attachments[20].text).toBe('... 5 more alerts');
    expect(body.text).toContain('25 firing');
  });

  it('discord keeps field values <= 1,024, embeds <= 10 and <= 6,000 characters in all, and says how many were cut', async () => {
    const request = await sendGroup(
      receiverConfig(`{ name: d, type: discord, url: ${server.url}/discord }`),
      many(30, 3000, { check: 'y'.repeat(2000) }),
    );
    const body = request.json as {
      content: string;
      embeds: Array<{ title: string; description: string; footer: { text: string }; fields: Array<{ name: string; value: string }> }>;
    };
    expect(body.embeds.length).toBeLessThanOrEqual(10);
    const total = body.embeds.reduce(
      (sum, embed) =>
        sum +
        embed.title.length +
        embed.description.length +
        embed.footer.text.length +
        embed.fields.reduce((fields, field) => fields + field.name.length + field.value.length, 0),
      0,
    );
    expect(total).toBeLessThanOrEqual(6000);
    for (const embed of body.embeds) for (const field of embed.fields) expect(field.value.length).toBeLessThanOrEqual(1024);
    expect(body.content).toContain(`... ${30 - body.embeds.length} more alerts`);
    expect(body.content.length).toBeLessThanOrEqual(2000);
  });

  it('telegram keeps a message <= 4,096 characters, cut at whole alerts', async () => {
    const request = await sendGroup(
      receiverConfig(`{ name: t, type: telegram, api_url: ${server.url}, bot_token: "1:x", chat_id: 5 }`),
      many(40, 400),
    );
    const { text } = request.json as { text: string };
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text).toMatch(/\n\.\.\. \d+ more alerts$/);
    // No tag is cut in half: every <a> and <b> opened is closed.
    expect(text.match(/<a /g)?.length).toBe(text.match(/<\/a>/g)?.length);
    expect(text.match(/<b>/g)?.length).toBe(text.match(/<\/b>/g)?.length);
  });

  it('telegram cuts one huge alert without breaking its HTML', async () => {
    const request = await sendGroup(receiverConfig(`{ name: t, type: telegram, api_url: ${server.url}, bot_token: "1:x", chat_id: 5 }`), [
      alertOf(0, '<&>'.repeat(3000)),
    ]);
    const { text } = request.json as { text: string };
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text).toContain('&#60;&#38;&#62;');
    expect(text).toMatch(/<a href="https:\/\/example.org\/runbook">Runbook<\/a>$/);
  });

  it('reads a decimal Retry-After as seconds, and Discord’s body retry_after', async () => {
    const config = receiverConfig(`{ name: d, type: discord, url: ${server.url}/discord }`);
    server.respond = () => ({ status: 429, headers: { 'retry-after': '0.5' } });
    expect(await createReceiver(config).send(groupOf([alertOf(0, 'd')]), { http, nowMs: Date.now() })).toMatchObject({
      outcome: 'retry',
      retryAfterMs: 500,
    });
    server.respond = () => ({ status: 429, body: '{"message":"You are being rate limited.","retry_after":0.25,"global":false}' });
    expect(await createReceiver(config).send(groupOf([alertOf(0, 'd')]), { http, nowMs: Date.now() })).toMatchObject({
      outcome: 'retry',
      retryAfterMs: 250,
    });
    server.respond = () => ({ status: 200 });
  });
});

describe('label sets and links', () => {
  const runway = (days: number): Sample[] => [
    targetUp('v'),
    {
      name: 'avaxmon_l1_validator_balance_runway_seconds',
      labels: { target: 'v', subnet: 'l1', node_id: 'NodeID-x' },
      value: days * 86_400,
    },
  ];

  it('a severity change resolves the old label set at Alertmanager in the same request', async () => {
    const am = await startRecorder();
    const harness = await startAlerting(
      '  rules:\n    AvalancheL1ValidatorBalanceLow: { for: 0s }',
      `    - { name: am, type: alertmanager, url: ${am.url} }`,
    );
    harnesses.push(harness, { ...harness, close: () => am.close() });
    harness.alerting.evaluate(runway(20), sec(0));
    await drained(harness.alerting);
    harness.alerting.evaluate(runway(5), sec(30));
    await drained(harness.alerting);
    const last = am.requests.at(-1)!.json as Array<{ labels: Record<string, string>; endsAt: string }>;
    expect(last.map((alert) => alert.labels.severity)).toEqual(['warning', 'critical']);
    expect(Date.parse(last[0].endsAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(last[1].endsAt)).toBeGreaterThan(Date.now());
  });

  it('generatorURL links to the alert’s target on the status page under external_url', async () => {
    const harness = await startAlerting(
      '  external_url: https://avaxmon.example.com/mon/\n  rules:\n    AvalancheL1ValidatorBalanceLow: { for: 0s }',
    );
    harnesses.push(harness);
    harness.alerting.evaluate(runway(5), sec(0));
    await drained(harness.alerting);
    const body = harness.hook.requests[0].json as { externalURL: string; alerts: Array<{ generatorURL: string }> };
    expect(body.externalURL).toBe('https://avaxmon.example.com/mon/');
    expect(body.alerts[0].generatorURL).toBe('https://avaxmon.example.com/mon/?target=v#target-v');
  });
});
