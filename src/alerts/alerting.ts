import type { Logger } from 'pino';
import { HttpClient } from '../clients/http.js';
import type { AlertsConfig } from '../config/alerts-schema.js';
import { LabelledCounter } from '../metrics/labelled-counter.js';
import type { Sample } from '../metrics/metric-desc.js';
import { Delivery, type LastDelivery } from './delivery.js';
import { AlertEngine } from './engine.js';
import { Outbox } from './outbox.js';
import { createReceiver } from './receivers/index.js';
import type { Receiver } from './receivers/receiver.js';
import { SEVERITIES, type CollectorLookup } from './rule.js';
import { Silences } from './silences.js';
import { AlertStateStore } from './state-store.js';
import type { AlertRecord } from './alert.js';

const MAX_RESPONSE_BYTES = 1024 * 1024;

/** The alert plane of one daemon: engine, persisted state, outbox and delivery, built from `alerts:`. */
export class Alerting {
  readonly engine: AlertEngine;
  readonly outbox: Outbox;
  readonly silences: Silences;
  private readonly delivery: Delivery;
  private readonly http = new HttpClient({ maxResponseBytes: MAX_RESPONSE_BYTES });
  private configValue: AlertsConfig;

  constructor(config: AlertsConfig, private readonly log: Logger, collectors?: CollectorLookup) {
    this.configValue = config;
    const store = new AlertStateStore(config.stateDir, log);
    this.outbox = new Outbox(config.stateDir, log);
    this.silences = new Silences(config.stateDir, log);
    this.delivery = new Delivery(this.outbox, receiversOf(config), config, this.http, log);
    this.engine = new AlertEngine(
      config,
      {
        log,
        enqueue: (notifications) => {
          if (this.outbox.enqueue(notifications).length > 0) this.delivery.kick();
        },
        save: (state) => store.save(state),
        collectors,
        silencing: (labels, nowMs) => this.silences.silencing(labels, nowMs),
      },
      store.load(),
    );
    // What was queued before a restart goes out now.
    this.delivery.kick();
  }

  get config(): AlertsConfig {
    return this.configValue;
  }

  evaluate(samples: readonly Sample[], nowMs = Date.now()): void {
    try {
      this.engine.evaluate(samples, nowMs);
    } catch (error) {
      this.log.error({ err: error }, 'Alert evaluation failed');
    }
  }

  /** A reload keeps every alert's state and the outbox; only rules and receivers change. */
  reconfigure(config: AlertsConfig): void {
    if (config.stateDir !== this.configValue.stateDir) this.log.warn('alerts.state_dir changes take effect on restart only');
    this.configValue = { ...config, stateDir: this.configValue.stateDir };
    this.engine.reconfigure(this.configValue);
    this.delivery.reconfigure(this.configValue, receiversOf(config));
  }

  lastDelivery(receiver: string): LastDelivery | undefined {
    return this.delivery.last.get(receiver);
  }

  /** Sends what it can within `timeoutMs`; the rest stays in the outbox for the next start. */
  async stop(timeoutMs: number): Promise<void> {
    await this.delivery.drain(timeoutMs);
    await this.delivery.stop();
    await this.http.close();
  }

  samples(nowMs = Date.now()): Sample[] {
    const alerts = new LabelledCounter('avaxmon_alerts');
    for (const alert of this.engine.active()) alerts.add({ rule: alert.rule, severity: alert.labels.severity, state: alert.state });
    const samples = [...alerts.samples(), ...this.delivery.notifications.samples(), ...this.engine.flap.held.samples()];
    const oldest = this.outbox.oldestCreatedMs();
    samples.push({ name: 'avaxmon_notification_queue_depth', labels: {}, value: this.outbox.depth });
    samples.push({ name: 'avaxmon_notification_oldest_queued_age_seconds', labels: {}, value: oldest === undefined ? 0 : Math.max(0, (nowMs - oldest) / 1000) });
    const oldestByReceiver = new Map(this.configValue.receivers.map((receiver) => [receiver.name, nowMs]));
    for (const entry of this.outbox.entries()) {
      if (oldestByReceiver.has(entry.receiver)) oldestByReceiver.set(entry.receiver, Math.min(oldestByReceiver.get(entry.receiver)!, entry.createdMs));
    }
    for (const [receiver, createdMs] of oldestByReceiver) {
      samples.push({ name: 'avaxmon_notification_receiver_oldest_queued_age_seconds', labels: { receiver }, value: Math.max(0, (nowMs - createdMs) / 1000) });
    }
    return samples;
  }

  activeAlerts(): readonly AlertRecord[] {
    return [...this.engine.active()].sort((a, b) => SEVERITIES.indexOf(a.labels.severity as never) - SEVERITIES.indexOf(b.labels.severity as never) || a.activeSinceMs - b.activeSinceMs);
  }
}

function receiversOf(config: AlertsConfig): Map<string, Receiver> {
  return new Map(config.receivers.map((receiver) => [receiver.name, createReceiver(receiver)]));
}
