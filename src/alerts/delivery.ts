import type { Logger } from 'pino';
import type { HttpClient } from '../clients/http.js';
import type { AlertsConfig } from '../config/alerts-schema.js';
import { LabelledCounter } from '../metrics/labelled-counter.js';
import { scrubSecrets } from '../redact.js';
import { backoffMs } from './backoff.js';
import { DueHeap } from './due-heap.js';
import type { Outbox, QueuedNotification } from './outbox.js';
import type { Receiver, SendResult } from './receivers/receiver.js';

export type DeliveryOutcome = 'delivered' | 'retried' | 'rejected' | 'expired' | 'dropped';

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
/** Retries are due on this grid, so a storm of failures wakes the sender once per tick, not once per notification. */
const RETRY_TICK_MS = 250;

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
  /** Lane heads to send now, in queue order; retries wait in `waiting` until due. */
  private ready: QueuedNotification[] = [];
  private readonly waiting = new DueHeap<QueuedNotification>();
  private timer?: NodeJS.Timeout;
  private timerDueMs = Infinity;
  private stopped = false;

  constructor(
    private readonly outbox: Outbox,
    private receivers: ReadonlyMap<string, Receiver>,
    private config: AlertsConfig,
    private readonly http: HttpClient,
    private readonly log: Logger,
  ) {
    this.ready = outbox.heads();
    outbox.takeNewHeads();
  }

  reconfigure(config: AlertsConfig, receivers: ReadonlyMap<string, Receiver>): void {
    this.config = config;
    this.receivers = receivers;
    this.kick();
  }

  /**
   * Sends what is due: after an enqueue, a delivery, or a retry timer. The cost is the number of
   * notifications that are due, never the size of the queue.
   */
  kick(): void {
    if (this.stopped) return;
    const nowMs = Date.now();
    this.ready.push(...this.outbox.takeNewHeads());
    for (let due = this.waiting.popDue(nowMs); due !== undefined; due = this.waiting.popDue(nowMs)) this.ready.push(due);
    let started = 0;
    while (started < this.ready.length && this.inFlight.size < MAX_IN_FLIGHT) {
      const entry = this.ready[started++];
      if (!this.outbox.has(entry) || this.inFlight.has(entry)) continue;
      this.inFlight.set(entry, this.attempt(entry).finally(() => {
        this.inFlight.delete(entry);
        this.kick();
      }));
    }
    this.ready = this.ready.slice(started);
    this.armTimer(nowMs);
  }

  private armTimer(nowMs: number): void {
    const nextDueMs = this.waiting.peekDueMs() ?? Infinity;
    if (nextDueMs >= this.timerDueMs && this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDueMs = nextDueMs;
    if (nextDueMs === Infinity) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDueMs = Infinity;
      this.kick();
    }, Math.max(0, nextDueMs - nowMs)).unref();
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
    this.outbox.flush();
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
    attempts.nextAtMs = Math.ceil((Date.now() + delayMs) / RETRY_TICK_MS) * RETRY_TICK_MS;
    this.attempts.set(entry, attempts);
    this.waiting.push(attempts.nextAtMs, entry);
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
