import { HttpClient } from '../../../clients/http.js';
import { receiverTransports } from '../../../config/transports.js';
import type { ReceiverConfig } from '../../../config/alerts-schema.js';
import type { Config } from '../../../config/schema.js';
import { scrubSecrets } from '../../../config/redact.js';
import { fingerprintOf } from '../../evaluation/alert-record.js';
import { generatorUrl } from './payload.js';
import { createReceiver } from './receivers/index.js';
import { runbookUrl } from '../../evaluation/rule.js';

export interface TestAlertResult {
  readonly ok: boolean;
  readonly message: string;
}

/**
 * `avaxmon test-alert --receiver NAME`: one synthetic firing alert straight through one receiver, or
 * through every integration of an Alertmanager-shaped receiver (its webhook_configs, slack_configs, ...),
 * with the externalURL the daemon would send (alerts.external_url, else `daemonUrl`: its
 * --web.external-url or the default made from --web.listen-address).
 */
export async function sendTestAlert(
  config: Config,
  receiverName: string | undefined,
  daemonUrl: string,
  nowMs = Date.now(),
): Promise<TestAlertResult> {
  const externalUrl = config.alerts?.externalUrl ?? daemonUrl;
  const receivers = config.alerts?.receivers ?? [];
  const known = [...new Set(receivers.map((receiver) => receiver.receiver ?? receiver.name))].join(', ') || 'none configured';
  const exact = receivers.filter((receiver) => receiver.name === receiverName);
  const chosen = exact.length > 0 ? exact : receivers.filter((receiver) => receiver.receiver === receiverName);
  if (chosen.length === 0) return { ok: false, message: `unknown receiver "${receiverName ?? ''}" (known: ${known})` };
  const results = [];
  for (const receiverConfig of chosen) results.push(await sendThrough(receiverConfig, externalUrl, nowMs));
  return { ok: results.every((result) => result.ok), message: results.map((result) => result.message).join('\n') };
}

async function sendThrough(receiverConfig: ReceiverConfig, externalUrl: string, nowMs: number): Promise<TestAlertResult> {
  const labels = { alertname: 'AvaxmonTestAlert', severity: receiverConfig.severities[0], target: 'avaxmon-test' };
  const fingerprint = fingerprintOf(labels);
  const http = new HttpClient({ maxResponseBytes: 1024 * 1024, transports: receiverTransports([receiverConfig]) });
  try {
    const key = `${fingerprint}-${nowMs}-test`;
    const alert = {
      fingerprint,
      status: 'firing' as const,
      labels,
      annotations: {
        summary: 'Test notification from avaxmon',
        description: `avaxmon test-alert checks the wiring of receiver "${receiverConfig.name}"; no action is needed.`,
        runbook_url: runbookUrl('AvaxmonTestAlert'),
      },
      startsAt: new Date(nowMs).toISOString(),
      generatorURL: generatorUrl(externalUrl, labels),
    };
    const result = await createReceiver(receiverConfig).send(
      {
        receiver: receiverConfig.name,
        key,
        groupLabels: { alertname: labels.alertname },
        notifications: [{ receiver: receiverConfig.name, key, reminder: false, alert }],
      },
      { http, nowMs, externalUrl },
    );
    if (result.outcome === 'delivered') return { ok: true, message: `receiver ${receiverConfig.name}: test notification delivered` };
    return { ok: false, message: scrubSecrets(`receiver ${receiverConfig.name}: ${result.outcome}: ${result.error}`) };
  } finally {
    await http.close();
  }
}
