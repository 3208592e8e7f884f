import type { Logger } from 'pino';
import type { AlertsConfig, ReceiverConfig } from '../config/alerts-schema.js';
import type { Sample } from '../metrics/metric-desc.js';
import { fingerprintOf, payloadOf, type AlertRecord, type AlertStatus, type EngineState } from './alert.js';
import type { NewNotification } from './outbox.js';
import { ALERTMANAGER_RESEND_MS } from './receivers/alertmanager.js';
import { routes } from './routing.js';
import { runbookUrl, type Candidate } from './rule.js';
import { ruleRegistry, TARGET_DOWN_RULE } from './rules/index.js';
import { pick, SampleIndex } from './sample-index.js';

/**
 * A failed collection removes its series; the condition is then unknown, not cleared. An alert whose
 * data is missing keeps firing this long before it resolves (e.g. the collector was disabled).
 */
const UNKNOWN_HOLD_MS = 5 * 60_000;

/** One target's samples, and the rules to evaluate over them (all when omitted). */
interface EvaluationScope {
  readonly target: string;
  readonly samples: readonly Sample[];
  readonly rules?: ReadonlySet<string>;
}

export interface EngineDeps {
  readonly log: Logger;
  /** Durably queues notifications; returns once they are on disk. */
  readonly enqueue: (notifications: readonly NewNotification[]) => void;
  /** Persists the alert state after a change; called after the notifications are queued. */
  readonly save: (state: EngineState) => void;
}

/**
 * The alert lifecycle of Prometheus plus Alertmanager: inactive → pending → firing (after `for`) →
 * resolved, with reminders, flap capping, inhibition by AvaxmonTargetDown, and routing.
 */
export class AlertEngine {
  /** Open alerts by fingerprint, the hash of their identity. */
  private readonly alerts = new Map<string, AlertRecord>();
  private readonly memories = new Map<string, Map<string, unknown>>();
  /** Notification times per fingerprint; outlives the alert, since a flapping alert resolves between flaps. */
  private transitions = new Map<string, number[]>();
  /** The time of the first evaluation since start; alerts older than that were restored from disk. */
  private startedMs?: number;

  constructor(
    private config: AlertsConfig,
    private readonly deps: EngineDeps,
    restored: EngineState = { alerts: [], transitions: {} },
  ) {
    // Keyed by identity: a record saved while severity was part of the fingerprint keeps its old one for receivers.
    for (const alert of restored.alerts) this.alerts.set(fingerprintOf(alert.labels), alert);
    for (const [fingerprint, times] of Object.entries(restored.transitions)) this.transitions.set(fingerprint, [...times]);
  }

  /** A reload swaps rules and receivers but keeps every alert's state. */
  reconfigure(config: AlertsConfig): void {
    this.config = config;
  }

  active(): readonly AlertRecord[] {
    return [...this.alerts.values()];
  }

  /**
   * Applies one evaluation of every rule over every target in `samples`. The state changes only
   * once its notifications are in the outbox: when queuing fails, the state is rolled back, so the
   * next evaluation makes the same transitions again (with the same idempotency keys) and nothing
   * is lost.
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
    return this.evaluateScopes([...byTarget].map(([target, targetSamples]) => ({ target, samples: targetSamples })), nowMs);
  }

  /**
   * Evaluates `rules` (every rule when omitted) for one target, over that target's samples only; the
   * alerts of other targets and other rules are left as they are. Every rule reads the series of one
   * target at a time (its sources all carry `target`), so evaluating target by target is exact.
   */
  evaluateTarget(target: string, samples: readonly Sample[], nowMs: number, rules?: ReadonlySet<string>): boolean {
    return this.evaluateScopes([{ target, samples, rules }], nowMs);
  }

  /** Returns whether any alert in scope changed (or a notification went out). */
  private evaluateScopes(scopes: readonly EvaluationScope[], nowMs: number): boolean {
    this.startedMs ??= nowMs;
    const inScope = (alert: AlertRecord) =>
      scopes.some((scope) => scope.target === alert.labels.target && (!scope.rules || scope.rules.has(alert.rule)));
    const before = this.checkpoint(inScope);
    const outgoing: NewNotification[] = [];
    try {
      for (const scope of scopes) outgoing.push(...this.transition(scope, new SampleIndex(scope.samples), nowMs));
      if (outgoing.length > 0) this.deps.enqueue(outgoing);
    } catch (error) {
      this.rollback(before, inScope);
      throw error;
    }
    // Most evaluations change nothing; serialising every alert of the fleet after each run would not be free.
    const changed = outgoing.length > 0 || JSON.stringify(this.active().filter(inScope)) !== before.alerts;
    if (changed) this.deps.save({ alerts: this.active(), transitions: this.recentTransitions(nowMs) });
    return changed;
  }

  private transition(scope: EvaluationScope, index: SampleIndex, nowMs: number): NewNotification[] {
    const unreachable = new Set(index.all('avaxmon_target_up').filter((sample) => sample.value === 0).map((sample) => sample.labels.target));
    const frozen = (alert: { rule: string; labels: Readonly<Record<string, string>> }) =>
      alert.rule !== TARGET_DOWN_RULE && unreachable.has(alert.labels.target);
    const outgoing: NewNotification[] = [];
    const seen = new Set<string>();
    // A rule that threw says nothing about its alerts: they are kept as they are, not resolved.
    const failedRules = new Set<string>();
    for (const { rule, labels, candidate } of this.candidates(scope, index, nowMs, failedRules)) {
      const fingerprint = fingerprintOf(labels);
      seen.add(fingerprint);
      const alert = this.alerts.get(fingerprint) ?? this.open(fingerprint, rule, labels, nowMs);
      alert.annotations = annotationsOf(rule, candidate);
      alert.resolveHeld = undefined;
      alert.unknownSinceMs = undefined;
      if (frozen(alert)) {
        outgoing.push(...this.keepAlive(alert, nowMs));
        continue;
      }
      // Same alert, new severity (a tiered rule escalating): no resolve, `for` keeps running.
      const severityChanged = alert.labels.severity !== labels.severity;
      alert.labels = labels;
      if (alert.state === 'pending' && nowMs - alert.activeSinceMs >= this.config.rules[rule].forMs) {
        alert.state = 'firing';
        alert.firingSinceMs = nowMs;
      }
      if (alert.state === 'firing') outgoing.push(...this.notifyFiring(alert, nowMs, severityChanged));
    }
    for (const [fingerprint, alert] of [...this.alerts]) {
      if (seen.has(fingerprint) || alert.labels.target !== scope.target || (scope.rules && !scope.rules.has(alert.rule))) continue;
      if (failedRules.has(alert.rule) || frozen(alert) || this.holdUnknown(alert, index, nowMs) || this.relearning(alert, nowMs)) {
        outgoing.push(...this.keepAlive(alert, nowMs));
        continue;
      }
      outgoing.push(...this.close(fingerprint, alert, nowMs));
    }
    return outgoing;
  }

  /**
   * The alerts in scope as JSON, and the transition lists by reference: those are never mutated in
   * place, flapAllows replaces a list before anything is pushed onto it.
   */
  private checkpoint(inScope: (alert: AlertRecord) => boolean): { alerts: string; transitions: Map<string, number[]> } {
    return { alerts: JSON.stringify(this.active().filter(inScope)), transitions: new Map(this.transitions) };
  }

  private rollback(before: ReturnType<AlertEngine['checkpoint']>, inScope: (alert: AlertRecord) => boolean): void {
    for (const [fingerprint, alert] of [...this.alerts]) if (inScope(alert)) this.alerts.delete(fingerprint);
    for (const alert of JSON.parse(before.alerts) as AlertRecord[]) this.alerts.set(alert.fingerprint, alert);
    this.transitions = before.transitions;
  }

  private *candidates(
    scope: EvaluationScope,
    index: SampleIndex,
    nowMs: number,
    failedRules: Set<string>,
  ): Generator<{ rule: string; labels: Record<string, string>; candidate: Candidate }> {
    for (const [name, rule] of ruleRegistry) {
      const settings = this.config.rules[name];
      if (!settings?.enabled || (scope.rules && !scope.rules.has(name))) continue;
      // Per rule and target: a rule forgets what it no longer sees, and it sees one target at a time.
      const memoryKey = `${name}\u0000${scope.target}`;
      let memory = this.memories.get(memoryKey);
      if (!memory) this.memories.set(memoryKey, (memory = new Map()));
      let found: Candidate[];
      try {
        found = rule.evaluate({ samples: index, nowMs, params: settings.params, memory });
      } catch (error) {
        this.deps.log.error({ rule: name, err: error }, 'Alert rule failed to evaluate');
        failedRules.add(name);
        continue;
      }
      for (const candidate of found) {
        const labels = { alertname: name, ...candidate.labels, severity: settings.severity ?? candidate.severity };
        yield { rule: name, labels, candidate };
      }
    }
  }

  private open(fingerprint: string, rule: string, labels: Record<string, string>, nowMs: number): AlertRecord {
    const alert: AlertRecord = { fingerprint, rule, labels, annotations: {}, state: 'pending', activeSinceMs: nowMs, notified: {}, reminders: 0 };
    this.alerts.set(fingerprint, alert);
    return alert;
  }

  /**
   * True while a notified alert's data is missing, up to UNKNOWN_HOLD_MS. The data is missing when no
   * source series carries the alert's identity: another series of the same target says nothing about it.
   */
  private holdUnknown(alert: AlertRecord, index: SampleIndex, nowMs: number): boolean {
    const sources = ruleRegistry.get(alert.rule)?.sources ?? [];
    const { alertname: _alertname, severity: _severity, ...identity } = alert.labels;
    const known = sources.some(({ metric, labels }) => index.all(metric).some((sample) => sameLabels(pick(sample.labels, labels), identity)));
    if (known || Object.keys(alert.notified).length === 0 || !this.config.rules[alert.rule]?.enabled) return false;
    alert.unknownSinceMs ??= nowMs;
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
   * The first firing notification (once the flap cap allows); after a severity change, a firing
   * notification with the new severity at once; otherwise reminders per receiver.
   */
  private notifyFiring(alert: AlertRecord, nowMs: number, severityChanged: boolean): NewNotification[] {
    const routed = this.config.receivers.filter((receiver) => routes(receiver, alert.labels));
    if (Object.keys(alert.notified).length === 0) {
      if (routed.length === 0 || !this.flapAllows(alert, nowMs)) return [];
      this.transitions.get(alert.fingerprint)!.push(nowMs);
      this.deps.log.info({ alert: alert.labels, receivers: routed.map((receiver) => receiver.name) }, 'Alert firing');
      return routed.map((receiver) => this.notification(alert, receiver, 'firing', nowMs));
    }
    if (severityChanged && routed.length > 0) {
      alert.reminders += 1;
      this.deps.log.info({ alert: alert.labels, receivers: routed.map((receiver) => receiver.name) }, 'Alert severity changed');
      return routed.map((receiver) => this.notification(alert, receiver, 'firing', nowMs));
    }
    return this.reminders(alert, nowMs, (receiver) => routes(receiver, alert.labels));
  }

  /**
   * A firing alert that is frozen (its target is down) or held (its data is unknown) sends no
   * reminders, except to Alertmanager: there a firing alert that is not re-sent expires at endsAt
   * and Alertmanager would resolve it on its own.
   */
  private keepAlive(alert: AlertRecord, nowMs: number): NewNotification[] {
    return alert.state === 'firing' ? this.reminders(alert, nowMs, (receiver) => receiver.type === 'alertmanager') : [];
  }

  private reminders(alert: AlertRecord, nowMs: number, eligible: (receiver: ReceiverConfig) => boolean): NewNotification[] {
    const due = this.config.receivers.filter(
      (receiver) =>
        eligible(receiver) && alert.notified[receiver.name] !== undefined && nowMs - alert.notified[receiver.name] >= this.repeatInterval(receiver),
    );
    if (due.length === 0) return [];
    alert.reminders += 1;
    return due.map((receiver) => this.notification(alert, receiver, 'firing', nowMs, true));
  }

  /** The condition no longer holds: a pending alert vanishes silently; a notified one resolves. */
  private close(fingerprint: string, alert: AlertRecord, nowMs: number): NewNotification[] {
    const notifiedTo = Object.keys(alert.notified);
    if (notifiedTo.length === 0) {
      this.alerts.delete(fingerprint);
      return [];
    }
    if (!this.flapAllows(alert, nowMs)) {
      alert.resolveHeld = true;
      return [];
    }
    this.alerts.delete(fingerprint);
    this.transitions.get(alert.fingerprint)!.push(nowMs);
    this.deps.log.info({ alert: alert.labels }, 'Alert resolved');
    const receivers = this.config.receivers.filter((receiver) => notifiedTo.includes(receiver.name) && receiver.sendResolved);
    return receivers.map((receiver) => this.notification(alert, receiver, 'resolved', nowMs));
  }

  private flapAllows(alert: AlertRecord, nowMs: number): boolean {
    const recent = (this.transitions.get(alert.fingerprint) ?? []).filter((at) => nowMs - at < this.config.flapWindowMs);
    this.transitions.set(alert.fingerprint, recent);
    return recent.length < this.config.flapMaxTransitions;
  }

  private recentTransitions(nowMs: number): Record<string, number[]> {
    for (const [fingerprint, times] of this.transitions) {
      const recent = times.filter((at) => nowMs - at < this.config.flapWindowMs);
      if (recent.length === 0) this.transitions.delete(fingerprint);
      else this.transitions.set(fingerprint, recent);
    }
    return Object.fromEntries(this.transitions);
  }

  private repeatInterval(receiver: ReceiverConfig): number {
    return receiver.repeatIntervalMs ?? (receiver.type === 'alertmanager' ? ALERTMANAGER_RESEND_MS : this.config.repeatIntervalMs);
  }

  private notification(alert: AlertRecord, receiver: ReceiverConfig, status: AlertStatus, nowMs: number, reminder = false): NewNotification {
    if (status === 'firing') alert.notified[receiver.name] = nowMs;
    const suffix = status === 'firing' ? `firing-${alert.reminders}` : 'resolved';
    return {
      receiver: receiver.name,
      fingerprint: alert.fingerprint,
      // Deterministic, so a notification re-queued after a crash carries the key the receiver saw.
      key: `${alert.fingerprint}-${alert.activeSinceMs}-${suffix}`,
      reminder,
      alert: payloadOf(alert, status, nowMs, this.config.externalUrl),
    };
  }
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function annotationsOf(rule: string, candidate: Candidate): Record<string, string> {
  return {
    summary: candidate.summary,
    description: candidate.description,
    runbook_url: runbookUrl(rule),
    ...candidate.annotations,
  };
}
