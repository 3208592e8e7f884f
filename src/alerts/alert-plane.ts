import type { Logger } from 'pino';
import { HttpClient } from '../clients/http.js';
import type { ResponseMemory } from '../clients/response-memory.js';
import { SteadyClock, systemClock, type Clock } from '../schedule/clock.js';
import { receiverTransports } from '../config/transports.js';
import type { AlertsConfig } from '../config/alerts-schema.js';
import { LabelledCounter } from '../metrics/labelled-counter.js';
import type { Sample } from '../metrics/metric-desc.js';
import { AlertDispatcher } from './dispatch/dispatcher.js';
import type { AlertVerdicts } from './dispatch/verdicts.js';
import { FlapDamper } from './dispatch/flap/flap-damper.js';
import { Delivery, type LastDelivery } from './dispatch/notify/delivery.js';
import { NotificationLog } from './dispatch/nflog/nflog.js';
import { AlertEngine, type TargetScope } from './evaluation/engine.js';
import { Outbox } from './dispatch/outbox.js';
import { createReceiver } from './dispatch/notify/receivers/index.js';
import type { Receiver } from './dispatch/notify/receivers/receiver.js';
import { SEVERITIES, type CollectorLookup } from './evaluation/rule.js';
import { alertUniverse } from './dispatch/silence/match-all.js';
import { Silences } from './dispatch/silence/silences.js';
import { AlertStateStore } from './state/state-store.js';
import { OrderedStateWrites } from './state/state-writes.js';
import { StateDirLock } from './state/state-dir-lock.js';
import { WriteFailures } from './state/write-failures.js';
import { waitAtMost } from './wait-at-most.js';
import type { AlertRecord } from './evaluation/alert-record.js';
import type { FamilyReader } from './evaluation/sample-index.js';

const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * The alert plane of one daemon, built from `alerts:`: evaluation (the engine) feeding dispatch
 * (the dispatcher, the outbox and delivery), silences, and the state both keep in state_dir.
 */
export class AlertPlane {
  readonly engine: AlertEngine;
  private readonly dispatcher: AlertDispatcher;
  readonly outbox: Outbox;
  readonly silences: Silences;
  private readonly delivery: Delivery;
  private readonly http: HttpClient;
  private configValue: AlertsConfig;
  private readonly lock: StateDirLock;
  private readonly writeFailures: WriteFailures;
  /** `alerts.json` and `nflog.json`, in that order. */
  private readonly writes: OrderedStateWrites;
  /** The evaluation under way wrote the alerts at once: the notification log follows at once. */
  private alertsWrittenNow = false;

  readonly clock: Clock;
  /** What evaluations measure `for`, flap windows and held alerts on: it never steps with the wall clock. */
  private readonly steady: SteadyClock;

  /**
   * `resources`: the daemon's body budget, which receivers' answers draw on too, and the clock that
   * evaluations, silences, the outbox, delivery and the lock's heartbeat run on. `targets`: the
   * configured targets' names, to tell a silence that mutes every alert.
   */
  constructor(
    config: AlertsConfig,
    private readonly log: Logger,
    collectors?: CollectorLookup,
    {
      responseMemory,
      clock = systemClock,
      targets = [],
    }: { responseMemory?: ResponseMemory; clock?: Clock; targets?: readonly string[] } = {},
  ) {
    this.configValue = config;
    this.clock = clock;
    this.steady = new SteadyClock(clock);
    this.http = new HttpClient({ maxResponseBytes: MAX_RESPONSE_BYTES, transports: receiverTransports(config.receivers), responseMemory });
    this.lock = new StateDirLock(config.stateDir, log, { heartbeatMs: config.lockHeartbeatMs, clock });
    this.writeFailures = new WriteFailures(log);
    const store = new AlertStateStore(config.stateDir, log);
    // Group waits, group intervals, repeats and retries are durations: a step of the wall clock must not move them.
    const intervals = this.steady.asClock();
    this.outbox = new Outbox(config.stateDir, log, this.writeFailures, config.maxQueuedNotifications, intervals);
    this.silences = new Silences(config.stateDir, log, {
      universe: alertUniverse(config, targets),
      clock,
      failures: this.writeFailures,
    });
    const restored = store.load();
    const nflog = new NotificationLog(config.stateDir, log, intervals.now());
    this.writes = new OrderedStateWrites(
      [
        // Until the engine exists (a handover at the start), the alerts as restored.
        { name: 'alerts', path: store.file, content: () => store.content(this.engine?.active() ?? restored.alerts) },
        { name: 'nflog', path: nflog.file, content: () => nflog.content() },
      ],
      this.writeFailures,
      intervals,
    );
    if (store.loadedText !== undefined) this.writes.loaded('alerts', store.loadedText);
    nflog.writes = this.writes;
    // A state_dir of a version before the log held it: what was notified, and dispatch's verdicts,
    // move from alerts.json to the log; only once the log has them is alerts.json rewritten without.
    if (restored.legacy) {
      nflog.adopt(restored.legacy, intervals.now());
      this.writes.now('alerts');
    }
    nflog.alerts.retain(new Set(restored.alerts.map((alert) => alert.fingerprint)));
    // Keyed by fingerprint; outlives the alert, since a flapping alert resolves between flaps.
    const flap = new FlapDamper(config, log, nflog.flap);
    this.dispatcher = new AlertDispatcher(config, {
      log,
      alerts: () => this.engine.openAlerts,
      flap,
      notificationLog: nflog,
      enqueue: (notifications) => {
        if (this.outbox.enqueue(notifications).length > 0) this.delivery.kick();
      },
      silencing: (labels, wallMs) => this.silences.silencing(labels, wallMs),
      wallOffsetMs: () => this.steady.wallOffsetMs(),
    });
    const alertView = {
      firing: () => this.dispatcher.firingAlerts(this.clock.now()),
      groupNotified: (receiver: string, groupLabels: Readonly<Record<string, string>>) =>
        this.dispatcher.groupNotified(receiver, groupLabels),
    };
    this.delivery = new Delivery(this.outbox, receiversOf(config), config, this.http, log, alertView, nflog, intervals);
    this.engine = new AlertEngine(
      config,
      {
        log,
        consumer: this.dispatcher,
        save: (queued) => {
          this.alertsWrittenNow = queued;
          if (queued) this.writes.now('alerts');
          else this.writes.soon('alerts');
        },
        collectors,
        wallOffsetMs: () => this.steady.wallOffsetMs(),
      },
      restored.alerts,
    );
    // What was queued before a restart goes out now.
    this.delivery.kick();
  }

  get config(): AlertsConfig {
    return this.configValue;
  }

  /** Dispatch's verdicts on each open alert (flapping, held, muted): what views show beside it. */
  get verdicts(): AlertVerdicts {
    return this.dispatcher;
  }

  /** Every rule over every target; returns whether any alert changed. */
  evaluate(samples: readonly Sample[], nowMs = this.steady.now()): boolean {
    return this.guarded({}, () => this.engine.evaluate(samples, nowMs));
  }

  /** Evaluates the scope's rules (all when omitted) for one target over its own samples; see AlertEngine.evaluateTargets. */
  evaluateTarget(scope: TargetScope, nowMs = this.steady.now()): boolean {
    return this.guarded({ target: scope.target }, () => this.engine.evaluateTargets([scope], nowMs));
  }

  /** The per-target rules of these targets; see AlertEngine.evaluateTargets. */
  evaluateTargets(scopes: readonly TargetScope[], nowMs = this.steady.now()): boolean {
    return this.guarded({}, () => this.engine.evaluateTargets(scopes, nowMs));
  }

  alertTargets(): string[] {
    return this.engine.alertTargets();
  }

  /** The rules with an open alert on the target. */
  openRulesOf(target: string): Set<string> {
    const rules = new Set<string>();
    for (const alert of this.engine.openAlerts.ofTarget(target)) rules.add(alert.rule);
    return rules;
  }

  /** Evaluates the fleet-wide rules over every sample; see AlertEngine.evaluateFleet. */
  evaluateFleet(samples: FamilyReader, nowMs = this.steady.now()): boolean {
    return this.guarded({}, () => this.engine.evaluateFleet(samples, nowMs));
  }

  /**
   * A failed evaluation (the outbox could not queue) is logged and counts as a change: its state was
   * rolled back. The notification log is written after the alerts (OrderedStateWrites holds it back
   * while their file is behind).
   */
  private guarded(context: Record<string, string>, evaluation: () => boolean): boolean {
    this.alertsWrittenNow = false;
    try {
      return evaluation();
    } catch (error) {
      this.log.error({ err: error, ...context }, 'Alert evaluation failed');
      return true;
    } finally {
      this.dispatcher.persist(this.steady.now(), this.alertsWrittenNow);
    }
  }

  /** A reload keeps every alert's state and the outbox; only rules and receivers change. */
  reconfigure(config: AlertsConfig, targets: readonly string[] = []): void {
    if (config.stateDir !== this.configValue.stateDir) this.log.warn('alerts.state_dir changes take effect on restart only');
    if (config.lockHeartbeatMs !== this.configValue.lockHeartbeatMs)
      this.log.warn('alerts.lock_heartbeat changes take effect on restart only');
    this.configValue = { ...config, stateDir: this.configValue.stateDir, lockHeartbeatMs: this.configValue.lockHeartbeatMs };
    this.engine.reconfigure(this.configValue);
    this.dispatcher.reconfigure(this.configValue);
    this.silences.setUniverse(alertUniverse(this.configValue, targets));
    this.delivery.reconfigure(this.configValue, receiversOf(config));
    void this.http.setTransports(receiverTransports(config.receivers));
  }

  lastDelivery(receiver: string): LastDelivery | undefined {
    return this.delivery.last.get(receiver);
  }

  /**
   * Sends what it can within `timeoutMs` (a send still under way then, to a hung receiver, is not
   * waited for either); the rest stays in the outbox for the next start. Then the state is written.
   */
  async stop(timeoutMs: number): Promise<void> {
    const deadlineMs = this.clock.now() + timeoutMs;
    const left = () => Math.max(0, deadlineMs - this.clock.now());
    await this.delivery.drain(timeoutMs);
    await waitAtMost(this.clock, this.delivery.stop(), left());
    await waitAtMost(this.clock, this.http.close(), left());
    this.outbox.flush();
    await Promise.all([this.silences.flush(), this.writes.stop()]);
    this.lock.release();
  }

  samples(nowMs = this.clock.now()): Sample[] {
    return [...this.alertSamples(), ...this.deliverySamples(nowMs)];
  }

  /** Alerts by rule, severity and state: these change only with an evaluation. */
  alertSamples(): Sample[] {
    const alerts = new LabelledCounter('avaxmon_alerts', ['rule', 'severity', 'state']);
    for (const alert of this.engine.active()) alerts.add({ rule: alert.rule, severity: alert.labels.severity, state: alert.state });
    return alerts.samples();
  }

  /** Notification outcomes, the queue and state_dir writes: these move with delivery, between evaluations. */
  deliverySamples(nowMs = this.clock.now()): Sample[] {
    const samples = [
      ...this.delivery.notifications.samples(),
      ...this.writeFailures.errors.samples(),
      ...this.outbox.dropped.samples(),
      ...this.dispatcher.flap.held.samples(),
    ];
    const oldest = this.outbox.oldestCreatedMs();
    samples.push({ name: 'avaxmon_notification_queue_depth', labels: {}, value: this.outbox.depth });
    samples.push(...this.silenceSamples(nowMs));
    samples.push({
      name: 'avaxmon_notification_oldest_queued_age_seconds',
      labels: {},
      value: oldest === undefined ? 0 : Math.max(0, (nowMs - oldest) / 1000),
    });
    const oldestByReceiver = new Map(this.configValue.receivers.map((receiver) => [receiver.name, nowMs]));
    for (const entry of this.outbox.entries()) {
      if (oldestByReceiver.has(entry.receiver))
        oldestByReceiver.set(entry.receiver, Math.min(oldestByReceiver.get(entry.receiver)!, entry.createdMs));
    }
    for (const [receiver, createdMs] of oldestByReceiver) {
      samples.push({
        name: 'avaxmon_notification_receiver_oldest_queued_age_seconds',
        labels: { receiver },
        value: Math.max(0, (nowMs - createdMs) / 1000),
      });
    }
    return samples;
  }

  /** Silences by state, as Alertmanager's alertmanager_silences, and the unexpired ones that match every alert. */
  private silenceSamples(nowMs: number): Sample[] {
    const { matchingEveryAlert, ...byState } = this.silences.counts(nowMs);
    return [
      ...(['active', 'pending', 'expired'] as const).map((state) => ({
        name: 'avaxmon_silences',
        labels: { state },
        value: byState[state],
      })),
      { name: 'avaxmon_silences_matching_every_alert', labels: {}, value: matchingEveryAlert },
    ];
  }

  activeAlerts(): readonly AlertRecord[] {
    return [...this.engine.active()].sort(
      (a, b) =>
        SEVERITIES.indexOf(a.labels.severity as never) - SEVERITIES.indexOf(b.labels.severity as never) ||
        a.activeSinceMs - b.activeSinceMs,
    );
  }
}

function receiversOf(config: AlertsConfig): Map<string, Receiver> {
  return new Map(config.receivers.map((receiver) => [receiver.name, createReceiver(receiver)]));
}
