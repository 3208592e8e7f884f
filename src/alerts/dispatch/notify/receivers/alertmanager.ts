import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import type { AlertPayload } from '../payload.js';
import { postJson, type Receiver, type SendResult } from './receiver.js';

/** A firing alert's endsAt lies this many resends ahead, as Prometheus does, so a dead avaxmon's alerts expire. */
const ENDS_AT_RESENDS = 4;
/** Firing alerts are re-sent to Alertmanager this often unless the receiver sets repeat_interval. */
export const ALERTMANAGER_RESEND_MS = 60_000;

/**
 * POST /api/v2/alerts to every configured Alertmanager, the whole group in one array. Delivered when
 * one accepts: the replicas of an HA Alertmanager cluster share their notification log, so one copy
 * is enough to notify. Alertmanager identifies an alert by its label set, so after a severity change
 * the old label set is resolved in the same request instead of being left to expire.
 */
export function createAlertmanagerReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    async send(group, ctx) {
      const endsAtFiring = new Date(ctx.nowMs + ENDS_AT_RESENDS * (config.repeatIntervalMs ?? ALERTMANAGER_RESEND_MS)).toISOString();
      const body = JSON.stringify(
        group.notifications.flatMap(({ alert }) => postableAlerts(alert, endsAtFiring, new Date(ctx.nowMs).toISOString())),
      );
      const results = await Promise.all(
        config.urls.map((base) => postJson(ctx, config, { url: `${base.replace(/\/$/, '')}/api/v2/alerts`, body })),
      );
      return results.find((result) => result.outcome === 'delivered') ?? worst(results);
    },
  };
}

function postableAlerts(alert: AlertPayload, endsAtFiring: string, now: string): Array<Record<string, unknown>> {
  const current = {
    labels: alert.labels,
    annotations: alert.annotations,
    startsAt: alert.startsAt,
    endsAt: alert.endsAt ?? endsAtFiring,
    generatorURL: alert.generatorURL ?? '',
  };
  if (!alert.previousLabels) return [current];
  return [{ ...current, labels: alert.previousLabels, annotations: alert.previousAnnotations ?? alert.annotations, endsAt: now }, current];
}

function worst(results: readonly SendResult[]): SendResult {
  return results.find((result) => result.outcome === 'retry') ?? results[0];
}
