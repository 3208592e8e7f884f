import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { HttpClient } from '../../../clients/http.js';
import { sleep, systemClock, type Clock, type Timer } from '../../../schedule/clock.js';
import type { AlertsConfig } from '../../../config/alerts-schema.js';
import { LabelledCounter } from '../../../metrics/labelled-counter.js';
import { scrubSecrets } from '../../../config/redact.js';
import { flushDueMs } from '../group/group-timing.js';
import { needsUpdate, notifiedGroup } from '../nflog/dedup.js';
import type { NotificationLog } from '../nflog/nflog.js';
import { backoffMs } from './retry-backoff.js';
import type { Outbox, QueuedNotification } from '../outbox.js';
import type { AlertPayload } from './payload.js';
import { compareAlertLabels } from './receivers/alertmanager-identity.js';
import type { OutgoingNotification } from './receivers/group.js';
import type { Receiver, SendResult } from './receivers/receiver.js';
import { groupLabelsOf } from '../group/group-labels.js';

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
/** Retries are due on this grid, so a storm of failures wakes the sender once per tick, not once per notification. */
const RETRY_TICK_MS = 250;
/** How often a stopping daemon looks whether the outbox has emptied. */
const DRAIN_POLL_MS = 50;

/** An alert firing now, as evaluation holds it: what a notification renders instead of what was queued. */
export interface FiringAlert {
  readonly alert: AlertPayload;
  /** Receivers told of this episode, and not muted (silenced, inhibited) now. */
  readonly shownTo: ReadonlySet<string>;
}

/** The firing alerts by fingerprint. */
export type FiringAlerts = () => ReadonlyMap<string, FiringAlert>;

/** What delivery reads from and tells the alert state: the firing alerts, and when a group was notified. */
export interface AlertView {
  readonly firing: FiringAlerts;
  /** A notification of the group went out: the group's repeat_interval counts from `atMs`, as Alertmanager's log does. */
  groupNotified(receiver: string, groupLabels: Readonly<Record<string, string>>): void;
}

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
 * re-sends the whole group; the dispatcher counts every alert sent with its group as notified, so a group
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
  /**
   * When each group was first flushed: as in Alertmanager's aggregation groups, a group flushes on a
   * fixed tick, group_wait after it began and every group_interval after, until it empties.
   */
  private readonly firstFlushMs = new Map<string, number>();
  private timer?: Timer;
  private timerDueMs = Infinity;
  private stopped = false;

  constructor(
    private readonly outbox: Outbox,
    private receivers: ReadonlyMap<string, Receiver>,
    private config: AlertsConfig,
    private readonly http: HttpClient,
    private readonly log: Logger,
    private readonly alerts: AlertView,
    /** Per group, what its last notification said was firing and resolved. */
    private readonly notified: NotificationLog,
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
    const retryMs = Math.max(0, ...batch.entries.map((entry) => this.attempts.get(entry)?.nextAtMs ?? 0));
    // Alertmanager groups what its receiver is sent: each alert goes out as it changes.
    if (!config || config.type === 'alertmanager') return retryMs;
    const oldestMs = Math.min(...batch.entries.map((entry) => entry.createdMs));
    return Math.max(flushDueMs(config.grouping, oldestMs, this.firstFlushMs.get(batch.lane)), retryMs);
  }

  private async attempt(batch: Batch): Promise<void> {
    const nowMs = this.clock.now();
    const receiver = this.receivers.get(batch.receiver);
    if (!receiver) {
      for (const entry of batch.entries) this.finish(entry, 'dropped', 'receiver no longer configured');
      return;
    }
    const firing = this.alerts.firing();
    if (!this.firstFlushMs.has(batch.lane) && receiver.config.type !== 'alertmanager') this.firstFlushMs.set(batch.lane, nowMs);
    const live = this.current(
      firing,
      batch.entries.filter((entry) => {
        const expired = nowMs - entry.createdMs > this.config.retry.maxAgeMs;
        if (expired) this.finish(entry, 'expired', 'undelivered for longer than retry.max_age');
        return !expired;
      }),
    );
    if (live.length === 0) return;
    const grouped = receiver.config.type !== 'alertmanager';
    const notifications = grouped ? this.withRestOfGroup(firing, batch, live) : live;
    const reminderDue = live.some((entry) => entry.reminder);
    if (grouped && !needsUpdate(this.notified.get(batch.lane), notifications, receiver.config.sendResolved, reminderDue)) {
      // Nothing the receiver has not been told already (an alert that fired and resolved between two flushes).
      for (const entry of live) this.outbox.remove(entry, true);
      return;
    }
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
      // The log before the outbox: killed in between, the restart finds the queued notification already
      // logged and sends nothing twice. The other way round it forgot the group was ever notified,
      // and dropped the group's resolve as news to nobody.
      // The group's alerts' repeat timers restart with it, in the same write of the log.
      this.alerts.groupNotified(batch.receiver, batch.groupLabels);
      if (grouped) this.notified.set(batch.lane, { ...notifiedGroup(notifications), atMs: this.clock.now() });
      for (const entry of live) this.finish(entry, 'delivered');
      // A group left with nothing firing ends, as Alertmanager's does: the next alert starts a new one, with group_wait.
      if (notifications.every((notification) => notification.alert.status === 'resolved') && !this.groupFiring(firing, batch)) {
        this.firstFlushMs.delete(batch.lane);
        this.notified.delete(batch.lane, this.clock.now());
      }
      return;
    }
    if (result.outcome === 'rejected') {
      for (const entry of live) this.finish(entry, 'rejected', result.error);
      return;
    }
    if (grouped) this.notified.tried(batch.lane, notifiedGroup(notifications).firing, this.clock.now());
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
   * Each alert of the batch as it stands now, as Alertmanager keeps one entry per alert: its current
   * episode's notification while it fires, else its latest resolve; what came before is dropped.
   * So a catch-up after a failing receiver (or a restart) carries the group's whole state, and an
   * alert that fired and resolved between two flushes is listed as resolved. A resolve queued behind
   * the firing of the same episode wins: after a crash between queuing that resolve and saving the
   * state, the restored state still says firing.
   */
  private current(firing: ReadonlyMap<string, FiringAlert>, entries: readonly QueuedNotification[]): QueuedNotification[] {
    return entries.flatMap((head) => {
      const lane = [...this.outbox.lane(head)];
      const startsAt = firing.get(head.fingerprint)?.alert.startsAt;
      const ended = (entry: QueuedNotification) => entry.alert.status === 'resolved' && entry.alert.startsAt === startsAt;
      const firingNow = startsAt !== undefined && !lane.some(ended);
      const kept = firingNow
        ? lane.find((entry) => entry.alert.startsAt === startsAt)
        : lane.findLast((entry) => entry.alert.status === 'resolved');
      for (const entry of lane) {
        if (entry === kept) break;
        this.attempts.delete(entry);
        this.outbox.remove(entry, true);
        this.log.debug({ receiver: entry.receiver, alert: entry.alert.labels }, 'Notification superseded by a later state of its alert');
      }
      return kept ? [kept] : [];
    });
  }

  /** Whether any alert of the batch's group fires, shown to the receiver or not (muted alerts keep a group alive). */
  private groupFiring(firing: ReadonlyMap<string, FiringAlert>, batch: Batch): boolean {
    const by = this.receivers.get(batch.receiver)?.config.grouping.by ?? ['...'];
    const wanted = JSON.stringify(batch.groupLabels);
    return [...firing.values()].some(({ alert }) => JSON.stringify(groupLabelsOf(by, alert.labels)) === wanted);
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
  const { previousLabels, previousAnnotations, ...alert } = entry.alert;
  if (!previousLabels) return [entry];
  const endsAt = new Date(entry.createdMs).toISOString();
  const annotations = previousAnnotations ?? alert.annotations;
  const previous = { ...alert, status: 'resolved' as const, labels: previousLabels, annotations, endsAt };
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
