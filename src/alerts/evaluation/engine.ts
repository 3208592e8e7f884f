import type { Logger } from 'pino';
import type { AlertsConfig, ReceiverConfig } from '../../config/alerts-schema.js';
import { sameLabels, type Sample } from '../../metrics/metric-desc.js';
import { fingerprintOf, payloadOf, type AlertRecord, type AlertStatus, type EngineState } from './alert-record.js';
import { collectorFailing } from './collector-health.js';
import { FlapDamper } from '../dispatch/flap/flap-damper.js';
import { Inhibitor } from '../dispatch/inhibit/inhibition.js';
import type { NewNotification } from '../dispatch/outbox.js';
import { ALERTMANAGER_RESEND_MS } from '../dispatch/notify/receivers/alertmanager.js';
import { routesNow, timeMuted } from '../dispatch/route/routing.js';
import { runbookUrl, type Candidate, type CollectorLookup } from './rule.js';
import { ruleRegistry, TARGET_DOWN_RULE } from './rules/index.js';
import { groupLabelsOf } from '../dispatch/group/group-labels.js';
import { pick, SampleIndex } from './sample-index.js';
import { FLEET_SCOPE, RuleMemories } from './rule-memories.js';
import { markStale } from './stale-facts.js';

/**
 * A failed collection removes its series; the condition is then unknown, not cleared. While a
 * collector of the target fails, an alert whose data is missing keeps its state (marked stale);
 * with no collector failing (e.g. the collector was disabled) it keeps firing this long, then resolves.
 */
const UNKNOWN_HOLD_MS = 5 * 60_000;

/** The label set and annotations an alert had before a severity change: receivers resolve it. */
interface PreviousAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * What one evaluation looks at: one target's samples and alerts (the rules that read one target),
 * or, with no target, every sample and the fleet-wide rules' alerts (see AlertRule.fleetReads).
 */
interface EvaluationScope {
  readonly target?: string;
  readonly samples: readonly Sample[];
  /** Only these rules; every rule of the scope's kind when omitted. */
  readonly rules?: ReadonlySet<string>;
}

export interface EngineDeps {
  readonly log: Logger;
  /** Durably queues notifications; returns once they are on disk. */
  readonly enqueue: (notifications: readonly NewNotification[]) => void;
  /** Persists the alert state after a change; called after the notifications are queued. */
  readonly save: (state: EngineState) => void;
  readonly collectors?: CollectorLookup;
  /** The ids of the active silences matching these labels. */
  readonly silencing?: (labels: Readonly<Record<string, string>>, nowMs: number) => readonly string[];
  /**
   * How far the wall clock is from the steady time the engine is given (SteadyClock.wallOffsetMs):
   * durations (`for`, flap windows, holds) run on the steady time, while rules (validation periods,
   * timestamps from the node) and silences read the wall clock. 0 when the two are one.
   */
  readonly wallOffsetMs?: () => number;
}

/**
 * The alert lifecycle of Prometheus plus Alertmanager: inactive → pending → firing (after `for`) →
 * resolved, with reminders, flap damping, freezing while the target is down, inhibit_rules,
 * silences, and routing.
 */
export class AlertEngine {
  /** Open alerts by fingerprint, the hash of their identity. */
  private readonly alerts = new Map<string, AlertRecord>();
  /** Fingerprints of the open alerts per target: a run's evaluation costs its target's alerts, not the fleet's. */
  private readonly fingerprintsOfTarget = new Map<string, Set<string>>();
  private readonly memories = new RuleMemories();
  /** Keyed by fingerprint; outlives the alert, since a flapping alert resolves between flaps. */
  readonly flap: FlapDamper;
  /** The time of the first evaluation since start; alerts older than that were restored from disk. */
  private startedMs?: number;
  /** The time of the latest evaluation: when delivery reports a notification, it went out after it. */
  private lastEvaluationMs?: number;

  constructor(
    private config: AlertsConfig,
    private readonly deps: EngineDeps,
    restored: EngineState = { alerts: [], transitions: {} },
  ) {
    // Keyed by identity: a record saved while severity was part of the fingerprint keeps its old one for receivers.
    for (const alert of restored.alerts) this.remember(fingerprintOf(alert.labels), alert);
    this.flap = new FlapDamper(config, deps.log, restored);
  }

  /** A reload swaps rules and receivers but keeps every alert's state. */
  reconfigure(config: AlertsConfig): void {
    this.config = config;
    this.flap.reconfigure(config);
  }

  active(): readonly AlertRecord[] {
    return [...this.alerts.values()];
  }

  /**
   * Applies one evaluation of every rule: target by target over each target's samples, and the
   * fleet-wide rules over all of them. The state changes only once its notifications are in the
   * outbox: when queuing fails, the state is rolled back, so the next evaluation makes the same
   * transitions again (with the same idempotency keys) and nothing is lost.
   */
  evaluate(samples: readonly Sample[], nowMs: number): boolean {
    const byTarget = new Map<string, Sample[]>();
    for (const alert of this.alerts.values()) if (alert.labels.target !== undefined) byTarget.set(alert.labels.target, []);
    for (const sample of samples) {
      const target = sample.labels.target;
      if (target === undefined) continue;
      const list = byTarget.get(target);
      if (list) list.push(sample);
      else byTarget.set(target, [sample]);
    }
    const scopes: EvaluationScope[] = [...byTarget].map(([target, targetSamples]) => ({ target, samples: targetSamples }));
    return this.evaluateScopes([...scopes, { samples }], nowMs);
  }

  /**
   * Evaluates `rules` (every per-target rule when omitted) for one target, over that target's samples
   * only; the alerts of other targets and other rules are left as they are.
   */
  evaluateTarget(target: string, samples: readonly Sample[], nowMs: number, rules?: ReadonlySet<string>): boolean {
    return this.evaluateScopes([{ target, samples, rules }], nowMs);
  }

  /** Every per-target rule of each of these targets, over its own samples: a share of a sweep. */
  evaluateTargets(scopes: ReadonlyArray<{ readonly target: string; readonly samples: readonly Sample[] }>, nowMs: number): boolean {
    return this.evaluateScopes(scopes, nowMs);
  }

  /** The targets with open alerts: a sweep covers them even once they report nothing. */
  alertTargets(): string[] {
    return [...this.fingerprintsOfTarget.keys()];
  }

  /** Evaluates the fleet-wide rules (see AlertRule.fleetReads) over the samples of every target. */
  evaluateFleet(samples: readonly Sample[], nowMs: number): boolean {
    return this.evaluateScopes([{ samples }], nowMs);
  }

  /** Returns whether any alert in scope changed (or a notification went out). */
  private evaluateScopes(scopes: readonly EvaluationScope[], nowMs: number): boolean {
    this.startedMs ??= nowMs;
    this.lastEvaluationMs = Math.max(this.lastEvaluationMs ?? nowMs, nowMs);
    const before = this.checkpoint(scopes);
    const durableBefore = this.durableState(scopes);
    const outgoing: NewNotification[] = [];
    try {
      for (const scope of scopes) outgoing.push(...this.transition(scope, new SampleIndex(scope.samples), nowMs));
      if (outgoing.length > 0) this.deps.enqueue(outgoing);
    } catch (error) {
      this.rollback(before, scopes);
      throw error;
    }
    this.flap.commit();
    this.groupsSent(outgoing, nowMs);
    // Most evaluations change nothing; serialising every alert of the fleet after each run would not be free.
    const changed = outgoing.length > 0 || this.durableState(scopes) !== durableBefore;
    if (changed) this.deps.save({ alerts: this.active(), ...this.flap.state(nowMs) });
    return changed;
  }

  private transition(scope: EvaluationScope, index: SampleIndex, nowMs: number): NewNotification[] {
    const unreachable = new Set(
      index
        .all('avaxmon_target_up')
        .filter((sample) => sample.value === 0)
        .map((sample) => sample.labels.target),
    );
    const frozen = (alert: { rule: string; labels: Readonly<Record<string, string>> }) =>
      alert.rule !== TARGET_DOWN_RULE && unreachable.has(alert.labels.target);
    const outgoing: NewNotification[] = [];
    const firing: Array<{ alert: AlertRecord; previous?: PreviousAlert }> = [];
    const seen = new Set<string>();
    // A rule that threw says nothing about its alerts: they are kept as they are, not resolved.
    const failedRules = new Set<string>();
    for (const { rule, labels, candidate } of this.candidates(scope, index, nowMs, failedRules)) {
      const fingerprint = fingerprintOf(labels);
      seen.add(fingerprint);
      const alert = this.alerts.get(fingerprint) ?? this.open(fingerprint, rule, labels, nowMs);
      const previousAnnotations = alert.annotations;
      alert.annotations = annotationsOf(rule, candidate);
      if (alert.held === 'resolved') {
        // The condition is back before its resolve went out: receivers still have "firing", which is right.
        this.flap.noteChange(fingerprint, nowMs);
        alert.held = undefined;
      }
      alert.unknownSinceMs = undefined;
      alert.stale = undefined;
      if (frozen(alert)) {
        outgoing.push(...this.keepAlive(alert, nowMs));
        continue;
      }
      // Same alert, new severity (a tiered rule escalating): `for` keeps running; receivers get the old label set resolved.
      const previous = alert.labels.severity !== labels.severity ? { labels: alert.labels, annotations: previousAnnotations } : undefined;
      alert.labels = labels;
      if (alert.state === 'pending' && nowMs - alert.activeSinceMs >= this.config.rules[rule].forMs) {
        alert.state = 'firing';
        alert.firingSinceMs = nowMs;
      }
      if (alert.state === 'firing') firing.push({ alert, previous });
    }
    for (const [fingerprint, alert] of this.alertsIn([scope])) {
      if (seen.has(fingerprint)) continue;
      if (failedRules.has(alert.rule) || frozen(alert) || this.holdUnknown(alert, index, nowMs) || this.relearning(alert, nowMs)) {
        outgoing.push(...this.keepAlive(alert, nowMs));
        continue;
      }
      outgoing.push(...this.close(fingerprint, alert, nowMs));
    }
    // Muting is decided once every alert's state is known: a source may come after its targets.
    const inhibitor = new Inhibitor(this.config.inhibitRules, {
      all: () => [...this.alerts.values()].filter(isFiring),
      ofTarget: (target) => [...(this.fingerprintsOfTarget.get(target) ?? [])].map((key) => this.alerts.get(key)!).filter(isFiring),
    });
    for (const { alert, previous } of firing) {
      alert.muted = mutedBy(inhibitor, alert) ?? silencedBy(this.deps.silencing?.(alert.labels, this.wallMs(nowMs)) ?? []);
      outgoing.push(...(alert.muted ? this.withdraw(alert, nowMs) : this.notifyFiring(alert, nowMs, previous)));
    }
    this.flap.sweep(nowMs, (fingerprint) => this.alerts.get(fingerprint)?.held !== undefined);
    return outgoing;
  }

  /**
   * What a restart needs of the alerts in scope: all but their annotations. A text that states a
   * remaining time or a current value changes at every evaluation; rewriting every alert of the
   * fleet for that after each run does not scale, and the first evaluation after a start renders it again.
   */
  private durableState(scopes: readonly EvaluationScope[]): string {
    return JSON.stringify(
      this.alertsIn(scopes).map(([, alert]) => alert),
      (key, value) => (key === 'annotations' ? undefined : value),
    );
  }

  /** The alerts in scope as JSON (cheap to compare and to restore); the flap damper journals from here. */
  private checkpoint(scopes: readonly EvaluationScope[]): string {
    this.flap.begin();
    return JSON.stringify(this.alertsIn(scopes).map(([, alert]) => alert));
  }

  private rollback(before: string, scopes: readonly EvaluationScope[]): void {
    for (const [fingerprint, alert] of this.alertsIn(scopes)) this.forget(fingerprint, alert);
    for (const alert of JSON.parse(before) as AlertRecord[]) this.remember(fingerprintOf(alert.labels), alert);
    this.flap.rollback();
  }

  /** The open alerts the scopes own, with their keys: a target scope looks at its own target's alerts only. */
  private alertsIn(scopes: readonly EvaluationScope[]): Array<[string, AlertRecord]> {
    const targets = scopes.map((scope) => scope.target);
    const fingerprints = targets.includes(undefined)
      ? [...this.alerts.keys()]
      : targets.flatMap((target) => [...(this.fingerprintsOfTarget.get(target!) ?? [])]);
    return fingerprints
      .map((fingerprint): [string, AlertRecord] => [fingerprint, this.alerts.get(fingerprint)!])
      .filter(([, alert]) => scopes.some((scope) => coversAlert(scope, alert)));
  }

  private remember(fingerprint: string, alert: AlertRecord): void {
    this.alerts.set(fingerprint, alert);
    const target = alert.labels.target;
    if (target === undefined) return;
    let fingerprints = this.fingerprintsOfTarget.get(target);
    if (!fingerprints) this.fingerprintsOfTarget.set(target, (fingerprints = new Set()));
    fingerprints.add(fingerprint);
  }

  private forget(fingerprint: string, alert: AlertRecord): void {
    this.alerts.delete(fingerprint);
    const target = alert.labels.target;
    const fingerprints = target === undefined ? undefined : this.fingerprintsOfTarget.get(target);
    fingerprints?.delete(fingerprint);
    if (fingerprints?.size === 0) this.fingerprintsOfTarget.delete(target!);
  }

  private *candidates(
    scope: EvaluationScope,
    index: SampleIndex,
    nowMs: number,
    failedRules: Set<string>,
  ): Generator<{ rule: string; labels: Record<string, string>; candidate: Candidate }> {
    for (const [name, rule] of ruleRegistry) {
      const settings = this.config.rules[name];
      if (!settings?.enabled || !coversRule(scope, name)) continue;
      // Per rule and target: a rule sees one target at a time, and forgets what it no longer sees.
      const memoryScope = scope.target ?? FLEET_SCOPE;
      const memories = this.memories;
      let found: Candidate[];
      try {
        found = rule.evaluate({
          samples: index,
          nowMs: this.wallMs(nowMs),
          params: settings.params,
          get memory() {
            return memories.of(name, memoryScope);
          },
          collectors: this.deps.collectors,
        });
      } catch (error) {
        this.deps.log.error({ rule: name, err: error }, 'Alert rule failed to evaluate');
        failedRules.add(name);
        continue;
      } finally {
        memories.dropIfEmpty(name, memoryScope);
      }
      for (const candidate of markStale(rule, index, found)) {
        const labels = { alertname: name, ...candidate.labels, severity: settings.severity ?? candidate.severity };
        yield { rule: name, labels, candidate };
      }
    }
  }

  /** The wall time of a steady time: what rules and silences compare with. */
  private wallMs(steadyMs: number): number {
    return steadyMs + (this.deps.wallOffsetMs?.() ?? 0);
  }

  private open(fingerprint: string, rule: string, labels: Record<string, string>, nowMs: number): AlertRecord {
    const alert: AlertRecord = {
      fingerprint,
      rule,
      labels,
      annotations: {},
      state: 'pending',
      activeSinceMs: nowMs,
      notified: {},
      reminders: 0,
    };
    this.remember(fingerprint, alert);
    return alert;
  }

  /**
   * True while a notified alert's data is missing: as long as a collector of its target fails, else
   * up to UNKNOWN_HOLD_MS. The data is missing when no source series carries the alert's identity:
   * another series of the same target says nothing about it.
   */
  private holdUnknown(alert: AlertRecord, index: SampleIndex, nowMs: number): boolean {
    const sources = ruleRegistry.get(alert.rule)?.sources ?? [];
    const { alertname: _alertname, severity: _severity, ...identity } = alert.labels;
    const known = sources.some(({ metric, labels }) =>
      index.all(metric).some((sample) => sameLabels(pick(sample.labels, labels), identity)),
    );
    if (known || Object.keys(alert.notified).length === 0 || !this.config.rules[alert.rule]?.enabled) return false;
    alert.unknownSinceMs ??= nowMs;
    if (collectorFailing(index, alert.labels.target)) {
      alert.stale = true;
      return this.config.staleExpiryMs === undefined || nowMs - alert.unknownSinceMs < this.config.staleExpiryMs;
    }
    return nowMs - alert.unknownSinceMs < UNKNOWN_HOLD_MS;
  }

  /** True for an alert restored from before the start while its rule is still learning the history it needs. */
  private relearning(alert: AlertRecord, nowMs: number): boolean {
    const settings = this.config.rules[alert.rule];
    const historyMs = ruleRegistry.get(alert.rule)?.historyMs;
    if (!historyMs || !settings?.enabled || alert.activeSinceMs >= this.startedMs!) return false;
    return nowMs - this.startedMs! < historyMs(settings.params) + settings.forMs;
  }

  /**
   * The first firing notification (unless flap damping holds it); after a severity change, a firing
   * notification with the new severity at once; otherwise reminders per receiver.
   */
  private notifyFiring(alert: AlertRecord, nowMs: number, previous?: PreviousAlert): NewNotification[] {
    const routed = this.config.receivers.filter((receiver) => routesNow(receiver, alert.labels, nowMs));
    if (Object.keys(alert.notified).length === 0) {
      if (routed.length === 0) return [];
      const decision = this.flap.decide(alert, 'firing', nowMs, alert.held !== 'firing');
      if (decision === 'hold') {
        alert.held = 'firing';
        return [];
      }
      alert.held = undefined;
      this.deps.log.info({ alert: alert.labels, receivers: routed.map((receiver) => receiver.name) }, 'Alert firing');
      return routed.map((receiver) => this.notification(alert, receiver, 'firing', nowMs, false, decision === 'notice'));
    }
    if (previous && routed.length > 0) {
      alert.reminders += 1;
      this.deps.log.info({ alert: alert.labels, receivers: routed.map((receiver) => receiver.name) }, 'Alert severity changed');
      return routed.map((receiver) => this.notification(alert, receiver, 'firing', nowMs, false, false, previous));
    }
    // A receiver that has not heard of the episode (its silence ended, or it was added by a reload) hears of it now.
    const unaware = routed.filter((receiver) => alert.notified[receiver.name] === undefined);
    if (unaware.length > 0) alert.reminders += 1;
    const told = unaware.map((receiver) => this.notification(alert, receiver, 'firing', nowMs));
    return [
      ...told,
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
      (receiver) => receiver.type === 'alertmanager' && alert.notified[receiver.name] !== undefined,
    );
    if (told.length === 0) return [];
    alert.reminders += 1;
    for (const receiver of told) delete alert.notified[receiver.name];
    return told.map((receiver) =>
      this.notification(alert, receiver, 'resolved', nowMs, false, false, undefined, `muted-${alert.reminders}`),
    );
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
      for (const alert of this.alerts.values()) {
        const shown = alert.state === 'firing' && !alert.muted && alert.notified[receiver.name] !== undefined;
        if (shown && groups.has(groupKeyOf(receiver, alert.labels))) alert.notified[receiver.name] = nowMs;
      }
    }
  }

  /**
   * Delivery sent a notification of this group: every alert of the group shown to the receiver went
   * with it, so its repeat_interval counts from now (Alertmanager's notification log does the same).
   */
  groupNotified(receiverName: string, groupLabels: Readonly<Record<string, string>>): void {
    const receiver = this.config.receivers.find((each) => each.name === receiverName);
    // Alertmanager's own resends keep its alerts from expiring: they follow the engine's schedule.
    if (!receiver || receiver.type === 'alertmanager' || this.lastEvaluationMs === undefined) return;
    // The engine's time (the evaluation that saw it go out), so reminders count on one clock.
    const atMs = this.lastEvaluationMs;
    const group = JSON.stringify(groupLabels);
    for (const alert of this.alerts.values()) {
      const shown = alert.state === 'firing' && !alert.muted && alert.notified[receiver.name] !== undefined;
      if (shown && groupKeyOf(receiver, alert.labels) === group) alert.notified[receiver.name] = atMs;
    }
  }

  private reminders(alert: AlertRecord, nowMs: number, eligible: (receiver: ReceiverConfig) => boolean): NewNotification[] {
    const due = this.config.receivers.filter(
      (receiver) =>
        eligible(receiver) &&
        alert.notified[receiver.name] !== undefined &&
        nowMs - alert.notified[receiver.name] >= this.repeatInterval(receiver),
    );
    if (due.length === 0) return [];
    alert.reminders += 1;
    return due.map((receiver) => this.notification(alert, receiver, 'firing', nowMs, true));
  }

  /**
   * The condition no longer holds: a pending alert (or one whose firing flap damping held) vanishes
   * silently, since receivers last heard "resolved"; a notified one resolves unless damping holds it.
   */
  private close(fingerprint: string, alert: AlertRecord, nowMs: number): NewNotification[] {
    const notifiedTo = Object.keys(alert.notified);
    if (notifiedTo.length === 0) {
      if (alert.held === 'firing') this.flap.noteChange(fingerprint, nowMs);
      this.forget(fingerprint, alert);
      return [];
    }
    const decision = this.flap.decide(alert, 'resolved', nowMs, alert.held !== 'resolved');
    if (decision === 'hold') {
      alert.held = 'resolved';
      return [];
    }
    this.forget(fingerprint, alert);
    this.deps.log.info({ alert: alert.labels }, 'Alert resolved');
    const receivers = this.config.receivers.filter(
      (receiver) => notifiedTo.includes(receiver.name) && receiver.sendResolved && !timeMuted(receiver, nowMs),
    );
    return receivers.map((receiver) => this.notification(alert, receiver, 'resolved', nowMs, false, decision === 'notice'));
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
    suffix = status === 'firing' ? `firing-${alert.reminders}` : 'resolved',
  ): NewNotification {
    if (status === 'firing') alert.notified[receiver.name] = nowMs;
    const payload = {
      ...payloadOf(alert, status, nowMs, this.config.externalUrl),
      ...(previous ? { previousLabels: previous.labels, previousAnnotations: previous.annotations } : {}),
    };
    return {
      receiver: receiver.name,
      fingerprint: alert.fingerprint,
      // Deterministic, so a notification re-queued after a crash carries the key the receiver saw.
      key: `${alert.fingerprint}-${alert.activeSinceMs}-${suffix}`,
      reminder,
      alert: flapNotice ? { ...payload, annotations: { ...payload.annotations, flapping: this.flap.notice(alert.fingerprint) } } : payload,
    };
  }
}

function groupKeyOf(receiver: ReceiverConfig, labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(groupLabelsOf(receiver.grouping.by, labels));
}

function isFiring(alert: AlertRecord): boolean {
  return alert.state === 'firing';
}

/** A target scope evaluates the per-target rules, the fleet scope the fleet-wide ones. */
function coversRule(scope: EvaluationScope, rule: string): boolean {
  if (scope.rules && !scope.rules.has(rule)) return false;
  return (ruleRegistry.get(rule)?.fleetReads !== undefined) === (scope.target === undefined);
}

/** A target scope owns that target's alerts of its rules; the fleet scope every alert of its rules. */
function coversAlert(scope: EvaluationScope, alert: AlertRecord): boolean {
  return coversRule(scope, alert.rule) && (scope.target === undefined || alert.labels.target === scope.target);
}

function mutedBy(inhibitor: Inhibitor, alert: AlertRecord): string | undefined {
  const source = inhibitor.inhibitedBy(alert.labels, alert.fingerprint);
  return source && `inhibited by ${source.rule}${source.labels.target ? ` on ${source.labels.target}` : ''}`;
}

function silencedBy(silences: readonly string[]): string | undefined {
  return silences.length > 0 ? `silenced by ${silences.join(', ')}` : undefined;
}

function annotationsOf(rule: string, candidate: Candidate): Record<string, string> {
  return {
    summary: candidate.summary,
    description: candidate.description,
    runbook_url: runbookUrl(rule),
    ...candidate.annotations,
  };
}
