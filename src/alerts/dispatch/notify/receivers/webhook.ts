import { createHmac } from 'node:crypto';
import { GO_ZERO_TIME_SECONDS } from '../../../../clients/parse.js';
import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import type { AlertPayload } from '../payload.js';
import { labelsFingerprint } from './alertmanager-identity.js';
import { alertmanagerGroupKey, alertsOf, common, groupStatus, type OutgoingGroup } from './group.js';
import { postJson, type Receiver } from './receiver.js';

/** Alertmanager writes the zero Go time as endsAt of a firing alert (RFC 3339, no fraction); webhook consumers expect it. */
const GO_ZERO_TIME = new Date(GO_ZERO_TIME_SECONDS * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Alertmanager's webhook payload (version 4), one group per request, so tools that accept
 * Alertmanager webhooks work unchanged. With a secret, the request carries
 * X-Avaxmon-Signature: sha256=HMAC(secret, "<X-Avaxmon-Timestamp>.<body>").
 */
export function createWebhookReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    send(group, ctx) {
      const body = JSON.stringify(webhookPayload(config, group, ctx.externalUrl));
      const headers: Record<string, string> = { 'idempotency-key': group.key };
      if (config.hmacSecret) {
        const timestamp = String(Math.floor(ctx.nowMs / 1000));
        headers['x-avaxmon-timestamp'] = timestamp;
        headers['x-avaxmon-signature'] = `sha256=${signature(config.hmacSecret, timestamp, body)}`;
      }
      return postJson(ctx, config, { url: config.urls[0], body, headers });
    },
  };
}

export function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function webhookPayload(
  config: Pick<ReceiverConfig, 'name' | 'receiver' | 'routeKey' | 'maxAlerts'>,
  group: OutgoingGroup,
  externalUrl?: string,
): Record<string, unknown> {
  const alerts = alertsOf(group);
  // Alertmanager's max_alerts keeps the first alerts of the sorted group, and says how many it left out.
  const kept = config.maxAlerts ? alerts.slice(0, config.maxAlerts) : alerts;
  return {
    version: '4',
    groupKey: alertmanagerGroupKey(config.routeKey, group),
    truncatedAlerts: alerts.length - kept.length,
    status: groupStatus(alerts),
    receiver: config.receiver ?? config.name,
    groupLabels: group.groupLabels,
    commonLabels: common(alerts.map((alert) => alert.labels)),
    commonAnnotations: common(alerts.map((alert) => alert.annotations)),
    externalURL: externalUrl ?? '',
    alerts: kept.map(webhookAlert),
  };
}

function webhookAlert(alert: AlertPayload): Record<string, unknown> {
  return {
    status: alert.status,
    labels: alert.labels,
    annotations: alert.annotations,
    startsAt: goTime(alert.startsAt),
    endsAt: alert.endsAt === undefined ? GO_ZERO_TIME : goTime(alert.endsAt),
    generatorURL: alert.generatorURL ?? '',
    // Alertmanager's fingerprint of the full label set, severity included.
    fingerprint: labelsFingerprint(alert.labels),
  };
}

/** A time as Go's RFC3339Nano writes it, as Alertmanager's webhooks carry it: no trailing zeros in the fraction. */
export function goTime(iso: string): string {
  return iso.replace(/\.(\d*?)0*Z$/, (_, digits: string) => (digits === '' ? 'Z' : `.${digits}Z`));
}
