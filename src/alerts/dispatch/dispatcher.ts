import type { Logger } from 'pino';
import type { AlertsConfig, ReceiverConfig } from '../../config/alerts-schema.js';
import type { AlertRecord, AlertStatus } from '../evaluation/alert-record.js';
import type { AlertConsumer, AlertUpdate, OpenAlerts, PreviousAlert } from '../evaluation/alert-updates.js';
import type { FlapDamper, SavedFlapState } from './flap/flap-damper.js';
import { groupLabelsOf } from './group/group-labels.js';
import { Inhibitor } from './inhibit/inhibition.js';
import type { FiringAlert } from './notify/delivery.js';
import { payloadOf } from './notify/payload.js';
import { ALERTMANAGER_RESEND_MS } from './notify/receivers/alertmanager.js';
import type { NotificationLog } from './nflog/nflog.js';
import type { NewNotification } from './outbox.js';
import { routesNow } from './route/routing.js';
import { timeMuted } from './time-mute/time-mute.js';
import type { AlertVerdict, AlertVerdicts } from './verdicts.js';

export interface DispatcherDeps {
  readonly log: Logger;
  /** The open alerts, as evaluation holds them. */
  readonly alerts: () => OpenAlerts;
  readonly flap: FlapDamper;
  /** Whom each alert was notified to; written at commit when an evaluation changed it. */
  readonly notificationLog: NotificationLog;
  /** Durably queues notifications; returns once they are on disk, throws when it cannot. */
  readonly enqueue: (notifications: readonly NewNotification[]) => void;
  /** The ids of the active silences matching these labels, at a wall time. */
  readonly silencing?: (labels: Readonly<Record<string, string>>, wallMs: number) => readonly string[];
  /** How far the wall clock is from the steady time evaluations run on (silences read the wall clock). */
  readonly wallOffsetMs?: () => number;
}

/**
 * Turns evaluation's alerts into notifications per receiver, in Alertmanager's order: inhibition,
 * time muting, silences, routing; then the durable outbox, from which delivery groups (group_wait,
 * group_interval), deduplicates against the notification log, retries and notifies. Here each
 * receiver's repeat_interval, the flap damper's holds, and the `alertmanager` receiver's own copy
 * (told an alert ended while it is muted, re-sent every minute while it fires) are decided. Its
 * verdicts on each alert (held, muted) are the notification log's, never the alert's.
 */
export class AlertDispatcher implements AlertConsumer, AlertVerdicts {
  /** The notifications of the evaluation under way, queued at commit. */
  private outgoing: NewNotification[] = [];
  /** The time of the latest evaluation: when delivery reports a notification, it went out after it. */
  private lastEvaluationMs?: number;
  /** The flap damper's memory the log was last written with by persist(). */
  private savedFlap: SavedFlapState;

  constructor(
    private config: AlertsConfig,
    private readonly deps: DispatcherDeps,
  ) {
    this.savedFlap = deps.notificationLog.flap;
  }

  get flap(): FlapDamper {
    return this.deps.flap;
  }

  private get notes() {
    return this.deps.notificationLog.alerts;
  }

  verdictOn(fingerprint: string): AlertVerdict {
    return {
      flappingSince: this.deps.flap.flappingSince(fingerprint),
      held: this.notes.held(fingerprint),
      muted: this.notes.muted(fingerprint),
    };
  }

  reconfigure(config: AlertsConfig): void {
    this.config = config;
    this.deps.flap.reconfigure(config);
  }

  begin(nowMs: number): void {
    this.lastEvaluationMs = Math.max(this.lastEvaluationMs ?? nowMs, nowMs);
    this.outgoing = [];
    this.deps.flap.begin();
    this.notes.begin();
  }

  take(updates: readonly AlertUpdate[], nowMs: number): ReadonlySet<string> {
    const keptOpen = new Set<string>();
    const closed = new Set<string>();
    const firing: Array<{ alert: AlertRecord; previous?: PreviousAlert }> = [];
    for (const update of updates) {
      const { alert } = update;
      const holds = update.kind === 'firing' || (update.kind === 'kept' && update.holds);
      if (holds && this.notes.held(alert.fingerprint) === 'resolved') {
        // The condition is back before its resolve went out: receivers still have "firing", which is right.
        this.deps.flap.noteChange(alert.fingerprint, nowMs);
        this.notes.hold(alert.fingerprint, undefined);
      }
      if (update.kind === 'firing') firing.push(update);
      else if (update.kind === 'kept') this.outgoing.push(...this.keepAlive(alert, nowMs));
      else if (this.close(alert, nowMs)) keptOpen.add(alert.fingerprint);
      else {
        closed.add(alert.fingerprint);
        this.notes.forget(alert.fingerprint);
      }
    }
    // Muting is decided once every alert's state is known: a source may come after its targets.
    const open = this.deps.alerts();
    const stillFiring = (alerts: Iterable<AlertRecord>) => [...alerts].filter((alert) => isFiring(alert) && !closed.has(alert.fingerprint));
    const inhibitor = new Inhibitor(this.config.inhibitRules, {
      all: () => stillFiring(open.all()),
      ofTarget: (target) => stillFiring(open.ofTarget(target)),
    });
    for (const { alert, previous } of firing) {
      const muted = mutedBy(inhibitor, alert) ?? silencedBy(this.deps.silencing?.(alert.labels, this.wallMs(nowMs)) ?? []);
      this.notes.mute(alert.fingerprint, muted);
      this.outgoing.push(...(muted ? this.withdraw(alert, nowMs) : this.notifyFiring(alert, nowMs, previous)));
    }
    const holding = (fingerprint: string) =>
      !closed.has(fingerprint) && open.get(fingerprint) !== undefined && this.notes.held(fingerprint) !== undefined;
    this.deps.flap.sweep(nowMs, holding);
    return keptOpen;
  }

  /** Queues the evaluation's notifications; the notification log is written by persist(). */
  commit(nowMs: number): boolean {
    const outgoing = this.outgoing;
    if (outgoing.length > 0) this.deps.enqueue(outgoing);
    this.outgoing = [];
    this.groupsSent(outgoing, nowMs);
    // A copy, on the evaluations' clock, which the damper's windows count on.
    if (this.deps.flap.commit()) this.deps.notificationLog.flap = structuredClone(this.deps.flap.state(nowMs));
    this.notes.commit();
    return outgoing.length > 0;
  }

  /**
   * Writes the notification log if evaluations changed it, after evaluation's alerts (see
   * OrderedStateWrites): killed in between, the restart finds an alert firing that the log does not
   * say was notified, and queues its notification again under the same key, which the outbox stores
   * once and its journal of delivered keys sends once. The other way round, the log could say an
   * alert that the restart finds pending was notified, and its first firing would never go out.
   * `now`: the alerts were written at once (the evaluation queued notifications about them), and the
   * log follows at once; otherwise it is written in the background, as a log behind is repaired.
   */
  persist(nowMs: number, now: boolean): void {
    if (this.deps.notificationLog.flap === this.savedFlap && !this.notes.dirty) return;
    this.savedFlap = this.deps.notificationLog.flap;
    if (now) this.deps.notificationLog.save(nowMs);
    else this.deps.notificationLog.saveSoon(nowMs);
  }

  rollback(): void {
    this.outgoing = [];
    this.deps.flap.rollback();
    this.notes.rollback();
  }

  /** What delivery renders a group from: the alerts firing now, and whom each was shown to. */
  firingAlerts(nowMs: number): Map<string, FiringAlert> {
    const firing = new Map<string, FiringAlert>();
    for (const alert of this.deps.alerts().all()) {
      if (alert.state !== 'firing') continue;
      const shownTo = new Set(this.notes.muted(alert.fingerprint) ? [] : this.notes.receivers(alert.fingerprint));
      firing.set(alert.fingerprint, { alert: payloadOf(alert, 'firing', nowMs, this.config.externalUrl), shownTo });
    }
    return firing;
  }

  /**
   * Delivery sent a notification of this group: every alert of the group shown to the receiver went
   * with it, so its repeat_interval counts from now (Alertmanager's notification log does the same).
   */
  groupNotified(receiverName: string, groupLabels: Readonly<Record<string, string>>): void {
    const receiver = this.config.receivers.find((each) => each.name === receiverName);
    // Alertmanager's own resends keep its alerts from expiring: they follow the evaluations' schedule.
    if (!receiver || receiver.type === 'alertmanager' || this.lastEvaluationMs === undefined) return;
    // The evaluations' time (the evaluation that saw it go out), so reminders count on one clock.
    const atMs = this.lastEvaluationMs;
    const group = JSON.stringify(groupLabels);
    for (const alert of this.deps.alerts().all()) {
      const shown =
        alert.state === 'firing' &&
        !this.notes.muted(alert.fingerprint) &&
        this.notes.notifiedAt(alert.fingerprint, receiver.name) !== undefined;
      if (shown && groupKeyOf(receiver, alert.labels) === group) this.notes.told(alert.fingerprint, receiver.name, atMs);
    }
  }

  /**
   * The first firing notification (unless flap damping holds it); after a severity change, a firing
   * notification with the new severity at once; otherwise reminders per receiver.
   */
  private notifyFiring(alert: AlertRecord, nowMs: number, previous?: PreviousAlert): NewNotification[] {
    const routed = this.config.receivers.filter((receiver) => routesNow(receiver, alert.labels, nowMs));
    const told = (receiver: ReceiverConfig) => this.notes.notifiedAt(alert.fingerprint, receiver.name) !== undefined;
    if (this.notes.receivers(alert.fingerprint).length === 0) {
      if (routed.length === 0) return [];
      const decision = this.deps.flap.decide(alert, 'firing', nowMs, this.notes.held(alert.fingerprint) !== 'firing');
      this.notes.hold(alert.fingerprint, decision === 'hold' ? 'firing' : undefined);
      if (decision === 'hold') return [];
      this.deps.log.info({ alert: alert.labels, receivers: routed.map((receiver) => receiver.name) }, 'Alert firing');
      return routed.map((receiver) => this.notification(alert, receiver, 'firing', nowMs, false, decision === 'notice'));
    }
    if (previous && routed.length > 0) {
      this.notes.nextReminder(alert.fingerprint);
      this.deps.log.info({ alert: alert.labels, receivers: routed.map((receiver) => receiver.name) }, 'Alert severity changed');
      return routed.map((receiver) => this.notification(alert, receiver, 'firing', nowMs, false, false, previous));
    }
    // A receiver that has not heard of the episode (its silence ended, or it was added by a reload) hears of it now.
    const unaware = routed.filter((receiver) => !told(receiver));
    if (unaware.length > 0) this.notes.nextReminder(alert.fingerprint);
    return [
      ...unaware.map((receiver) => this.notification(alert, receiver, 'firing', nowMs)),
      ...this.reminders(alert, nowMs, (receiver) => routesNow(receiver, alert.labels, nowMs) && !unaware.includes(receiver)),
    ];
  }

  /**
   * A muted (silenced, inhibited) alert: Alertmanager, which keeps its own copy, is told it ended,
   * as Prometheus ends an alert, so it stops paging; it hears of the alert again once unmuted.
   * Other receivers just get no reminders meanwhile.
   */
  private withdraw(alert: AlertRecord, nowMs: number): NewNotification[] {
    const told = this.config.receivers.filter(
      (receiver) => receiver.type === 'alertmanager' && this.notes.notifiedAt(alert.fingerprint, receiver.name) !== undefined,
    );
    if (told.length === 0) return [];
    const number = this.notes.nextReminder(alert.fingerprint);
    for (const receiver of told) this.notes.untold(alert.fingerprint, receiver.name);
    return told.map((receiver) => this.notification(alert, receiver, 'resolved', nowMs, false, false, undefined, `muted-${number}`));
  }

  /**
   * A firing alert that is frozen (its target is down), held (its data is unknown) or muted (inhibited)
   * sends no first notice and no reminders, except to Alertmanager once it has it: there a firing alert
   * that is not re-sent expires at endsAt and Alertmanager would resolve it on its own.
   */
  private keepAlive(alert: AlertRecord, nowMs: number): NewNotification[] {
    return alert.state === 'firing' ? this.reminders(alert, nowMs, (receiver) => receiver.type === 'alertmanager') : [];
  }

  /**
   * Any notification to a grouping receiver (firing or resolve) carries its whole group, so every
   * alert of the group shown to that receiver was re-sent with it: their reminders count from now. The
   * group is then reminded once per repeat_interval after its last notification, as Alertmanager does.
   */
  private groupsSent(outgoing: readonly NewNotification[], nowMs: number): void {
    for (const receiver of this.config.receivers) {
      if (receiver.type === 'alertmanager') continue;
      // Any notification of a group, a resolve too, carries the group's firing alerts: the repeat timer restarts.
      const groups = new Set(
        outgoing
          .filter((notification) => notification.receiver === receiver.name)
          .map((notification) => groupKeyOf(receiver, notification.alert.labels)),
      );
      if (groups.size === 0) continue;
      for (const alert of this.deps.alerts().all()) {
        const shown =
          alert.state === 'firing' &&
          !this.notes.muted(alert.fingerprint) &&
          this.notes.notifiedAt(alert.fingerprint, receiver.name) !== undefined;
        if (shown && groups.has(groupKeyOf(receiver, alert.labels))) this.notes.told(alert.fingerprint, receiver.name, nowMs);
      }
    }
  }

  private reminders(alert: AlertRecord, nowMs: number, eligible: (receiver: ReceiverConfig) => boolean): NewNotification[] {
    const due = this.config.receivers.filter((receiver) => {
      const notifiedMs = this.notes.notifiedAt(alert.fingerprint, receiver.name);
      return eligible(receiver) && notifiedMs !== undefined && nowMs - notifiedMs >= this.repeatInterval(receiver);
    });
    if (due.length === 0) return [];
    this.notes.nextReminder(alert.fingerprint);
    return due.map((receiver) => this.notification(alert, receiver, 'firing', nowMs, true));
  }

  /**
   * The condition no longer holds: a pending alert (or one whose firing flap damping held) vanishes
   * silently, since receivers last heard "resolved"; a notified one resolves unless damping holds it.
   * Returns whether the alert stays open, its resolve held.
   */
  private close(alert: AlertRecord, nowMs: number): boolean {
    const notifiedTo = this.notes.receivers(alert.fingerprint);
    if (notifiedTo.length === 0) {
      if (this.notes.held(alert.fingerprint) === 'firing') this.deps.flap.noteChange(alert.fingerprint, nowMs);
      return false;
    }
    const decision = this.deps.flap.decide(alert, 'resolved', nowMs, this.notes.held(alert.fingerprint) !== 'resolved');
    if (decision === 'hold') {
      this.notes.hold(alert.fingerprint, 'resolved');
      return true;
    }
    this.deps.log.info({ alert: alert.labels }, 'Alert resolved');
    const receivers = this.config.receivers.filter(
      (receiver) => notifiedTo.includes(receiver.name) && receiver.sendResolved && !timeMuted(receiver, nowMs),
    );
    this.outgoing.push(...receivers.map((receiver) => this.notification(alert, receiver, 'resolved', nowMs, false, decision === 'notice')));
    return false;
  }

  private repeatInterval(receiver: ReceiverConfig): number {
    return receiver.repeatIntervalMs ?? (receiver.type === 'alertmanager' ? ALERTMANAGER_RESEND_MS : this.config.repeatIntervalMs);
  }

  private notification(
    alert: AlertRecord,
    receiver: ReceiverConfig,
    status: AlertStatus,
    nowMs: number,
    reminder = false,
    flapNotice = false,
    previous?: PreviousAlert,
    suffix = status === 'firing' ? `firing-${this.notes.reminders(alert.fingerprint)}` : 'resolved',
  ): NewNotification {
    if (status === 'firing') this.notes.told(alert.fingerprint, receiver.name, nowMs);
    const payload = {
      ...payloadOf(alert, status, nowMs, this.config.externalUrl),
      ...(previous ? { previousLabels: previous.labels, previousAnnotations: previous.annotations } : {}),
    };
    const annotations = flapNotice ? { ...payload.annotations, flapping: this.deps.flap.notice(alert.fingerprint) } : undefined;
    return {
      receiver: receiver.name,
      fingerprint: alert.fingerprint,
      // Deterministic, so a notification re-queued after a crash carries the key the receiver saw.
      key: `${alert.fingerprint}-${alert.activeSinceMs}-${suffix}`,
      reminder,
      alert: annotations ? { ...payload, annotations } : payload,
    };
  }

  /** The wall time of a steady time: what silences compare with. */
  private wallMs(steadyMs: number): number {
    return steadyMs + (this.deps.wallOffsetMs?.() ?? 0);
  }
}

function groupKeyOf(receiver: ReceiverConfig, labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(groupLabelsOf(receiver.grouping.by, labels));
}

function isFiring(alert: AlertRecord): boolean {
  return alert.state === 'firing';
}

function mutedBy(inhibitor: Inhibitor, alert: AlertRecord): string | undefined {
  const source = inhibitor.inhibitedBy(alert.labels, alert.fingerprint);
  return source && `inhibited by ${source.rule}${source.labels.target ? ` on ${source.labels.target}` : ''}`;
}

function silencedBy(silences: readonly string[]): string | undefined {
  return silences.length > 0 ? `silenced by ${silences.join(', ')}` : undefined;
}
