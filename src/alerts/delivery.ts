import type { Logger } from 'pino';
import type { HttpClient } from '../clients/http.js';
import type { AlertsConfig } from '../config/alerts-schema.js';
import { LabelledCounter } from '../metrics/labelled-counter.js';
import { scrubSecrets } from '../redact.js';
import { backoffMs } from './backoff.js';
import type { Outbox, QueuedNotification } from './outbox.js';
import type { Receiver, SendResult } from './receivers/receiver.js';

export const DELIVERY_OUTCOMES = ['delivered', 'retried', 'rejected', 'expired', 'dropped'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** The last delivery attempt of one receiver, for the status page. */
export interface LastDelivery {
  readonly atMs: number;
  readonly outcome: DeliveryOutcome;
  readonly alertname: string;
  readonly error?: string;
}

interface Attempts {
  count: number;
  nextAtMs: number;
}

/** Retry-After can ask for more than our own cap; honour it, but never park a notification for days. */
const MAX_RETRY_AFTER_MS = 3_600_000;
const MAX_IN_FLIGHT = 16;

/**
 * Sends the outbox at least once: the head notification of each (receiver, alert) goes out, and the
 * next one of that alert only after it is done, so one alert's notifications keep their order while
 * other alerts are not held up. Failures retry with backoff and jitter, honouring Retry-After.
 */
export class Delivery {
  readonly notifications = new LabelledCounter('avaxmon_notifications_total');
  readonly last = new Map<string, LastDelivery>();
  private readonly attempts = new Map<QueuedNotification, Attempts>();
  private readonly inFlight = new Map<QueuedNotification, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly outbox: Outbox,
    private receivers: ReadonlyMap<string, Receiver>,
    private config: AlertsConfig,
    private readonly http: HttpClient,
    private readonly log: Logger,
  ) {
    this.countFromZero(receivers);
  }

  reconfigure(config: AlertsConfig, receivers: ReadonlyMap<string, Receiver>): void {
    this.config = config;
    this.receivers = receivers;
    this.countFromZero(receivers);
    this.kick();
  }

  /** Every receiver × outcome exists from the start at 0, so rate() and increase() see the first failure. */
  private countFromZero(receivers: ReadonlyMap<string, Receiver>): void {
    for (const receiver of receivers.keys()) for (const outcome of DELIVERY_OUTCOMES) this.notifications.add({ receiver, outcome }, 0);
  }

  /** Looks for due notifications now: after an enqueue, a delivery, or a retry timer. */
  kick(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const nowMs = Date.now();
    let nextDueMs = Infinity;
    for (const entry of this.heads()) {
      if (this.inFlight.size >= MAX_IN_FLIGHT) break;
      const due = this.attempts.get(entry)?.nextAtMs ?? 0;
      if (due > nowMs) {
        nextDueMs = Math.min(nextDueMs, due);
        continue;
      }
      this.inFlight.set(entry, this.attempt(entry).finally(() => {
        this.inFlight.delete(entry);
        this.kick();
      }));
    }
    if (nextDueMs < Infinity) this.timer = setTimeout(() => this.kick(), Math.max(0, nextDueMs - nowMs)).unref();
  }

  /** Waits until the outbox is empty or `timeoutMs` passed; what is left stays on disk for the next start. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.outbox.depth > 0 && Date.now() < deadline) {
      this.kick();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(this.inFlight.values());
  }

  /** The first queued notification of each (receiver, alert) that is not being sent right now. */
  private heads(): QueuedNotification[] {
    const seen = new Set<string>();
    const heads: QueuedNotification[] = [];
    for (const entry of this.outbox.entries()) {
      const lane = `${entry.receiver}\n${entry.fingerprint}`;
      if (seen.has(lane)) continue;
      seen.add(lane);
      if (!this.inFlight.has(entry)) heads.push(entry);
    }
    return heads;
  }

  private async attempt(entry: QueuedNotification): Promise<void> {
    const nowMs = Date.now();
    const receiver = this.receivers.get(entry.receiver);
    if (!receiver) return this.finish(entry, 'dropped', 'receiver no longer configured');
    if (nowMs - entry.createdMs > this.config.retry.maxAgeMs) return this.finish(entry, 'expired', 'undelivered for longer than retry.max_age');
    let result: SendResult;
    try {
      result = await receiver.send(entry, { http: this.http, nowMs });
    } catch (error) {
      result = { outcome: 'retry', error: String((error as Error)?.message ?? error) };
    }
    if (result.outcome === 'delivered') return this.finish(entry, 'delivered');
    if (result.outcome === 'rejected') return this.finish(entry, 'rejected', result.error);
    const attempts = this.attempts.get(entry) ?? { count: 0, nextAtMs: 0 };
    attempts.count += 1;
    const { initialBackoffMs, maxBackoffMs } = this.config.retry;
    const delayMs = result.retryAfterMs !== undefined ? Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS) : backoffMs(attempts.count, initialBackoffMs, maxBackoffMs);
    attempts.nextAtMs = Date.now() + delayMs;
    this.attempts.set(entry, attempts);
    this.record(entry, 'retried', result.error);
    this.log.warn({ receiver: entry.receiver, alert: entry.alert.labels.alertname, attempt: attempts.count, retryInMs: Math.round(delayMs), error: scrubSecrets(result.error) }, 'Notification failed; will retry');
  }

  private finish(entry: QueuedNotification, outcome: DeliveryOutcome, error?: string): void {
    this.outbox.remove(entry, outcome === 'delivered');
    this.attempts.delete(entry);
    this.record(entry, outcome, error);
    const fields = { receiver: entry.receiver, alert: entry.alert.labels, status: entry.alert.status, key: entry.key };
    if (outcome === 'delivered') this.log.info(fields, 'Notification delivered');
    else this.log.error({ ...fields, outcome, error: scrubSecrets(error ?? '') }, 'Notification given up');
  }

  private record(entry: QueuedNotification, outcome: DeliveryOutcome, error?: string): void {
    this.notifications.add({ receiver: entry.receiver, outcome });
    this.last.set(entry.receiver, { atMs: Date.now(), outcome, alertname: entry.alert.labels.alertname, error: error && scrubSecrets(error) });
  }
}
