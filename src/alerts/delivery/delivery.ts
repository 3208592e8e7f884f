import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { HttpClient } from '../../clients/http.js';
import { sleep, systemClock, type Clock, type Timer } from '../../clock.js';
import type { AlertsConfig } from '../../config/alerts-schema.js';
import { LabelledCounter } from '../../metrics/labelled-counter.js';
import { scrubSecrets } from '../../redact.js';
import { backoffMs } from './backoff.js';
import type { Outbox, QueuedNotification } from './outbox.js';
import type { AlertPayload } from '../alert.js';
import { compareAlertLabels } from './receivers/alertmanager-identity.js';
import type { OutgoingNotification } from './receivers/group.js';
import type { Receiver, SendResult } from './receivers/receiver.js';
import { groupLabelsOf } from './group-labels.js';

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
  readonly count: number;
  readonly nextAtMs: number;
}

/** Retry-After can ask for more than our own cap; honour it, but never park a notification for days. */
const MAX_RETRY_AFTER_MS = 3_600_000;
const MAX_IN_FLIGHT = 16;
/** How late past its due time a never-tried notification counts as overdue (see Delivery.overdue). */
const OVERDUE_SLACK_MS = 1_000;
/** Retries are due on this grid, so a storm of failures wakes the sender once per tick, not once per notification. */
const RETRY_TICK_MS = 250;
/** How often a stopping daemon looks whether the outbox has emptied. */
const DRAIN_POLL_MS = 50;

/** An alert firing now, as the engine knows it: what a notification renders instead of what was queued. */
export interface FiringAlert {
  readonly alert: AlertPayload;
  /** Receivers told of this episode, and not muted (silenced, inhibited) now. */
  readonly shownTo: ReadonlySet<string>;
}

/** The engine's firing alerts by fingerprint. */
export type FiringAlerts = () => ReadonlyMap<string, FiringAlert>;

/** The queued notifications of one group of one receiver that go out together, and when. */
interface Batch {
  readonly lane: string;
  readonly receiver: string;
  readonly groupLabels: Record<string, string>;
  readonly entries: QueuedNotification[];
  dueMs: number;
}

/**
 * Sends the outbox at least once, grouped per receiver as Alertmanager does: the changes of one group
 * (equal `group_by` labels) go out in one request, the first once the group's oldest has waited
 * `group_wait`, the next no sooner than `group_interval` after the last. Each request carries the
 * group's state, as Alertmanager's do: every alert of the group firing now, and those resolved since
 * the last request; a firing notification whose alert stopped firing is never sent. A reminder
 * re-sends the whole group; the engine counts every alert sent with its group as notified, so a group
 * is reminded once per repeat_interval. The `alertmanager` receiver gets each
 * alert as it changes, as from Prometheus: Alertmanager groups. A batch holds the head notification
 * of each alert, so one alert's notifications keep their order. Failures retry with backoff and
 * jitter, honouring Retry-After; each notification stays on disk until its batch is delivered,
 * rejected or it expires.
 */
export class Delivery {
  readonly notifications = new LabelledCounter('avaxmon_notifications_total', ['receiver', 'outcome']);
  readonly last = new Map<string, LastDelivery>();
  private readonly attempts = new Map<QueuedNotification, Attempts>();
  /** In-flight batches by group lane: one request per group at a time. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** When each group lane last had a notification delivered, for group_interval. */
  private readonly lastSentMs = new Map<string, number>();
  private timer?: Timer;
  private timerDueMs = Infinity;
  private stopped = false;

  constructor(
    private readonly outbox: Outbox,
    private receivers: ReadonlyMap<string, Receiver>,
    private config: AlertsConfig,
    private readonly http: HttpClient,
    private readonly log: Logger,
    private readonly firingAlerts: FiringAlerts,
    private readonly clock: Clock = systemClock,
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

  /** Looks for due batches now: after an enqueue, a delivery, or a timer. */
  kick(): void {
    if (this.stopped) return;
    const nowMs = this.clock.now();
    let nextDueMs = Infinity;
    for (const batch of this.batches()) {
      if (this.inFlight.size >= MAX_IN_FLIGHT) break;
      if (batch.dueMs > nowMs) {
        nextDueMs = Math.min(nextDueMs, batch.dueMs);
        continue;
      }
      this.inFlight.set(
        batch.lane,
        this.attempt(batch).finally(() => {
          this.inFlight.delete(batch.lane);
          this.kick();
        }),
      );
    }
    this.armTimer(nextDueMs, nowMs);
  }

  /** Keeps an earlier timer: a storm of kicks must not push the next due batch back. */
  private armTimer(nextDueMs: number, nowMs: number): void {
    if (nextDueMs >= this.timerDueMs && this.timer) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDueMs = nextDueMs;
    if (nextDueMs === Infinity) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.timerDueMs = Infinity;
        this.kick();
      },
      Math.max(0, nextDueMs - nowMs),
    );
    this.timer.unref();
  }

  /** Waits until the outbox is empty or `timeoutMs` passed; what is left stays on disk for the next start. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = this.clock.now() + timeoutMs;
    while (this.outbox.depth > 0 && this.clock.now() < deadline) {
      this.kick();
      await sleep(this.clock, DRAIN_POLL_MS);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    await Promise.all(this.inFlight.values());
    this.outbox.flush();
  }

  /** The queue as batches: per receiver and group, the first queued notification of each alert. */
  private batches(): Batch[] {
    const batches = new Map<string, Batch>();
    for (const entry of this.outbox.heads()) {
      const groupLabels = groupLabelsOf(this.receivers.get(entry.receiver)?.config.grouping.by ?? ['...'], entry.alert.labels);
      const lane = `${entry.receiver}\n${JSON.stringify(groupLabels)}`;
      if (this.inFlight.has(lane)) continue;
      const batch = batches.get(lane) ?? { lane, receiver: entry.receiver, groupLabels, entries: [], dueMs: 0 };
      batch.entries.push(entry);
      batches.set(lane, batch);
    }
    for (const batch of batches.values()) batch.dueMs = this.dueMs(batch);
    return [...batches.values()];
  }

  private dueMs(batch: Batch): number {
    const config = this.receivers.get(batch.receiver)?.config;
    const grouping = config?.type === 'alertmanager' ? undefined : config?.grouping;
    if (!grouping) return Math.max(0, ...batch.entries.map((entry) => this.attempts.get(entry)?.nextAtMs ?? 0));
    const oldestMs = Math.min(...batch.entries.map((entry) => entry.createdMs));
    const lastSentMs = this.lastSentMs.get(batch.lane);
    const retryMs = Math.max(0, ...batch.entries.map((entry) => this.attempts.get(entry)?.nextAtMs ?? 0));
    return Math.max(oldestMs + grouping.waitMs, lastSentMs === undefined ? 0 : lastSentMs + grouping.intervalMs, retryMs);
  }

  private async attempt(batch: Batch): Promise<void> {
    const nowMs = this.clock.now();
    const receiver = this.receivers.get(batch.receiver);
    if (!receiver) {
      for (const entry of batch.entries) this.finish(entry, 'dropped', 'receiver no longer configured');
      return;
    }
    const firing = this.firingAlerts();
    const live = this.current(
      firing,
      batch.entries.filter((entry) => {
        const expired = nowMs - entry.createdMs > this.config.retry.maxAgeMs;
        if (expired) this.finish(entry, 'expired', 'undelivered for longer than retry.max_age');
        return !expired;
      }),
    );
    if (live.length === 0) return;
    const notifications = receiver.config.type === 'alertmanager' ? live : this.withRestOfGroup(firing, batch, live);
    let result: SendResult;
    try {
      result = await receiver.send(
        { receiver: batch.receiver, key: groupKeyOf(live), groupLabels: batch.groupLabels, notifications },
        { http: this.http, nowMs, externalUrl: this.config.externalUrl },
      );
    } catch (error) {
      result = { outcome: 'retry', error: String((error as Error)?.message ?? error) };
    }
    if (result.outcome === 'delivered') {
      this.lastSentMs.set(batch.lane, this.clock.now());
      for (const entry of live) this.finish(entry, 'delivered');
      return;
    }
    if (result.outcome === 'rejected') {
      for (const entry of live) this.finish(entry, 'rejected', result.error);
      return;
    }
    const count = Math.max(...live.map((entry) => this.attempts.get(entry)?.count ?? 0)) + 1;
    const { initialBackoffMs, maxBackoffMs } = this.config.retry;
    const delayMs =
      result.retryAfterMs !== undefined
        ? Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS)
        : backoffMs(count, initialBackoffMs, maxBackoffMs);
    for (const entry of live) {
      this.attempts.set(entry, { count, nextAtMs: Math.ceil((this.clock.now() + delayMs) / RETRY_TICK_MS) * RETRY_TICK_MS });
      this.record(entry, 'retried', result.error);
    }
    this.log.warn(
      {
        receiver: batch.receiver,
        alerts: live.map((entry) => entry.alert.labels.alertname),
        attempt: count,
        retryInMs: Math.round(delayMs),
        error: scrubSecrets(result.error),
      },
      'Notification failed; will retry',
    );
  }

  /**
   * Drops what is no longer true: a firing notification whose alert stopped firing (or fired again
   * since, as a new episode) goes nowhere. If it was the alert's first notice and never tried, as when
   * the alert resolved within group_wait, the receiver never heard of it and its resolve goes nowhere
   * either, as in Alertmanager. If it is overdue (the receiver was failing, or the daemon down), the
   * resolve still follows: the operator learns what happened meanwhile, and no stale firing pages.
   * A resolve of the same episode queued behind the firing says so too: after a crash between queuing
   * that resolve and saving the state, the restored state still says firing. A firing read back from
   * disk after a restart counts as overdue: whether it was tried before is not known.
   */
  private current(firing: ReadonlyMap<string, FiringAlert>, entries: readonly QueuedNotification[]): QueuedNotification[] {
    return entries.flatMap((head) => {
      // A dropped firing hands its place to the next of its alert's lane (its resolve), so a
      // catch-up carries the group's whole state in one notification, as Alertmanager's does.
      const tried = new Set<QueuedNotification>();
      for (let entry: QueuedNotification | undefined = head; entry && !tried.has(entry); entry = this.outbox.lane(head)[0]) {
        if (this.isCurrent(firing, entry)) return [entry];
        tried.add(entry);
      }
      return [];
    });
  }

  private isCurrent(firing: ReadonlyMap<string, FiringAlert>, entry: QueuedNotification): boolean {
    if (entry.alert.status !== 'firing') return true;
    const restoredAsFiring = firing.get(entry.fingerprint)?.alert.startsAt === entry.alert.startsAt;
    if (restoredAsFiring && !this.resolveQueued(entry)) return true;
    // Whether a firing queued before a restart was tried is lost with that process: the receiver
    // may have been paged, so its resolve still goes out (a resolve too many beats a page left open).
    const overdue = this.outbox.restoredFromDisk(entry) || this.attempts.has(entry) || this.overdue(entry);
    this.attempts.delete(entry);
    this.outbox.remove(entry, true);
    if (!overdue && !entry.reminder && !entry.alert.previousLabels) {
      for (const resolve of [...this.outbox.lane(entry)])
        if (resolve.alert.status === 'resolved' && resolve.alert.startsAt === entry.alert.startsAt) this.outbox.remove(resolve, true);
    }
    this.log.debug(
      { receiver: entry.receiver, alert: entry.alert.labels },
      'Firing notification dropped: the alert stopped firing before it went out',
    );
    return false;
  }

  private resolveQueued(entry: QueuedNotification): boolean {
    return this.outbox.lane(entry).some((queued) => queued.alert.status === 'resolved' && queued.alert.startsAt === entry.alert.startsAt);
  }

  /**
   * Still queued well past the time it was due (group_wait, a group_interval behind another
   * notification, and a second's slack): the receiver failed or the daemon was down meanwhile.
   */
  private overdue(entry: QueuedNotification): boolean {
    const grouping = this.receivers.get(entry.receiver)?.config.grouping;
    return this.clock.now() - entry.createdMs > (grouping ? grouping.waitMs + grouping.intervalMs : 0) + OVERDUE_SLACK_MS;
  }

  /** The batch's changes, and every other alert of the group firing now, in Alertmanager's order. */
  private withRestOfGroup(
    firing: ReadonlyMap<string, FiringAlert>,
    batch: Batch,
    live: readonly QueuedNotification[],
  ): OutgoingNotification[] {
    const by = this.receivers.get(batch.receiver)?.config.grouping.by ?? ['...'];
    const included = new Set(live.map((entry) => entry.fingerprint));
    const wanted = JSON.stringify(batch.groupLabels);
    const rest = [...firing]
      .filter(
        ([fingerprint, { alert, shownTo }]) =>
          shownTo.has(batch.receiver) && !included.has(fingerprint) && JSON.stringify(groupLabelsOf(by, alert.labels)) === wanted,
      )
      .map(([fingerprint, { alert }]) => ({ receiver: batch.receiver, key: `${fingerprint}-state`, reminder: true, alert }));
    return [...live.flatMap(withPreviousResolved), ...rest].sort((a, b) => compareAlertLabels(a.alert.labels, b.alert.labels));
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
    this.last.set(entry.receiver, {
      atMs: this.clock.now(),
      outcome,
      alertname: entry.alert.labels.alertname,
      error: error && scrubSecrets(error),
    });
  }
}

/**
 * After a severity change the old label set is another alert to Alertmanager, with its own
 * fingerprint: it resolves in the notification that fires the new one, as Alertmanager's does.
 */
function withPreviousResolved(entry: QueuedNotification): OutgoingNotification[] {
  const { previousLabels, ...alert } = entry.alert;
  if (!previousLabels) return [entry];
  const endsAt = new Date(entry.createdMs).toISOString();
  const previous = { ...alert, status: 'resolved' as const, labels: previousLabels, endsAt };
  return [{ receiver: entry.receiver, key: `${entry.key}-previous`, reminder: false, alert: previous }, entry];
}

/** A notification alone keeps its own key; a batch gets one derived from its members', stable across retries. */
function groupKeyOf(entries: readonly QueuedNotification[]): string {
  if (entries.length === 1) return entries[0].key;
  const members = entries
    .map((entry) => entry.key)
    .sort()
    .join('\n');
  return `group-${createHash('sha256').update(members).digest('hex').slice(0, 32)}`;
}
