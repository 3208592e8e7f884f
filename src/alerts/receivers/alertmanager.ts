import type { ReceiverConfig } from '../../config/alerts-schema.js';
import { postJson, type Receiver, type SendResult } from './receiver.js';

/** A firing alert's endsAt lies this many resends ahead, as Prometheus does, so a dead avaxmon's alerts expire. */
const ENDS_AT_RESENDS = 4;
/** Firing alerts are re-sent to Alertmanager this often unless the receiver sets repeat_interval. */
export const ALERTMANAGER_RESEND_MS = 60_000;

/**
 * POST /api/v2/alerts to every configured Alertmanager. Delivered when one accepts: the replicas of
 * an HA Alertmanager cluster share their notification log, so one copy is enough to notify.
 */
export function createAlertmanagerReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    async send(notification, ctx) {
      const { alert } = notification;
      const endsAt = alert.endsAt ?? new Date(ctx.nowMs + ENDS_AT_RESENDS * (config.repeatIntervalMs ?? ALERTMANAGER_RESEND_MS)).toISOString();
      const body = JSON.stringify([
        { labels: alert.labels, annotations: alert.annotations, startsAt: alert.startsAt, endsAt, generatorURL: alert.generatorURL ?? '' },
      ]);
      const results = await Promise.all(
        config.urls.map((base) => postJson(ctx, config, { url: `${base.replace(/\/$/, '')}/api/v2/alerts`, body })),
      );
      return results.find((result) => result.outcome === 'delivered') ?? worst(results);
    },
  };
}

function worst(results: readonly SendResult[]): SendResult {
  return results.find((result) => result.outcome === 'retry') ?? results[0];
}
