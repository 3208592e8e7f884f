import type { Logger } from 'pino';
import type { AlertsConfig } from '../../config/alerts-schema.js';
import { sameLabels, type Sample } from '../../metrics/metric-desc.js';
import { fingerprintOf, type AlertRecord } from './alert-record.js';
import type { AlertConsumer, AlertUpdate, OpenAlerts } from './alert-updates.js';
import { collectorFailing } from './collector-health.js';
import { runbookUrl, type Candidate, type CollectorLookup, type RuleContext } from './rule.js';
import { ruleRegistry, TARGET_DOWN_RULE } from './rules/index.js';
import { pick, SampleIndex, type FamilyReader } from './sample-index.js';
import { FLEET_SCOPE, RuleMemories } from './rule-memories.js';
import { markStale } from './stale-facts.js';

/**
 * A failed collection removes its series; the condition is then unknown, not cleared. While a
 * collector of the target fails, an alert whose data is missing keeps its state (marked stale);
 * with no collector failing (e.g. the collector was disabled) it keeps firing this long, then resolves.
 */
const UNKNOWN_HOLD_MS = 5 * 60_000;

/**
 * What one evaluation looks at: one target's samples and alerts (the rules that read one target),
 * or, with no target, every sample and the fleet-wide rules' alerts (see AlertRule.fleetReads).
 */
interface EvaluationScope {
  readonly target?: string;
  /** The fleet scope's are read family by family, as rules look them up (see SampleIndex). */
  readonly samples: readonly Sample[] | FamilyReader;
  /** Only these rules; every rule of the scope's kind when omitted. */
  readonly rules?: ReadonlySet<string>;
  /** Told of each rule that found nothing from these samples alone, and the families it read (see SettledRules). */
  readonly settled?: SettledListener;
}

/** A rule found nothing, reading only these families (a set emptied after the call: copy what is kept): no clock, no memory, no collector lookup. */
export type SettledListener = (rule: string, reads: ReadonlySet<string>) => void;

/** One target's evaluation: its samples, and optionally only some rules (see EvaluationScope). */
export type TargetScope = Omit<EvaluationScope, 'target'> & { readonly target: string };

export interface EngineDeps {
  readonly log: Logger;
  /** Takes each evaluation's alerts: dispatch, which evaluation knows by this shape only. */
  readonly consumer: AlertConsumer;
  /**
   * The open alerts changed (`active()` has them); called once the consumer has committed. `queued`:
   * the evaluation queued notifications, which a restart must find the alerts consistent with, so
   * they are written before the evaluation returns; other changes may be written in the background.
   */
  readonly save: (queued: boolean) => void;
  readonly collectors?: CollectorLookup;
  /**
   * How far the wall clock is from the steady time the engine is given (SteadyClock.wallOffsetMs):
   * durations (`for`, holds) run on the steady time, while rules (validation periods, timestamps
   * from the node) read the wall clock. 0 when the two are one.
   */
  readonly wallOffsetMs?: () => number;
}

/**
 * Prometheus' alert lifecycle: inactive → pending → firing (after `for`) → resolved, with alerts
 * frozen while their target is down and kept while their data is unknown. It produces alerts and
 * nothing else: each evaluation's alerts go to the consumer (dispatch), which decides what is sent.
 */
export class AlertEngine {
  /** Open alerts by fingerprint, the hash of their identity. */
  private readonly alerts = new Map<string, AlertRecord>();
  /** Fingerprints of the open alerts per target: a run's evaluation costs its target's alerts, not the fleet's. */
  private readonly fingerprintsOfTarget = new Map<string, Set<string>>();
  private readonly memories = new RuleMemories();
  /** The time of the first evaluation since start; alerts older than that were restored from disk. */
  private startedMs?: number;

  /** The open alerts, for dispatch: where it looks for inhibiting alerts and a group's members. */
  readonly openAlerts: OpenAlerts = {
    all: () => this.alerts.values(),
    ofTarget: (target) => [...(this.fingerprintsOfTarget.get(target) ?? [])].map((key) => this.alerts.get(key)!),
    get: (fingerprint) => this.alerts.get(fingerprint),
  };

  constructor(
    private config: AlertsConfig,
    private readonly deps: EngineDeps,
    restored: readonly AlertRecord[] = [],
  ) {
    // Keyed by identity: a record saved while severity was part of the fingerprint keeps its old one for receivers.
    for (const alert of restored) this.remember(fingerprintOf(alert.labels), alert);
  }

  /** A reload swaps rules but keeps every alert's state. */
  reconfigure(config: AlertsConfig): void {
    this.config = config;
  }

  active(): readonly AlertRecord[] {
    return [...this.alerts.values()];
  }

  /**
   * Applies one evaluation of every rule: target by target over each target's samples, and the
   * fleet-wide rules over all of them. The state changes only once the consumer committed (its
   * notifications are in the outbox): when it cannot, the state is rolled back, so the next
   * evaluation makes the same transitions again (with the same idempotency keys) and nothing is lost.
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
   * The per-target rules of each of these targets (its scope's `rules`, or all), over its own samples
   * only: a run's target, or a share of a sweep. The alerts of other targets and rules are left as they are.
   */
  evaluateTargets(scopes: readonly TargetScope[], nowMs: number): boolean {
    return this.evaluateScopes(scopes, nowMs);
  }

  /** The targets with open alerts: a sweep covers them even once they report nothing. */
  alertTargets(): string[] {
    return [...this.fingerprintsOfTarget.keys()];
  }

  /** Evaluates the fleet-wide rules (see AlertRule.fleetReads) over the samples of every target. */
  evaluateFleet(samples: FamilyReader, nowMs: number): boolean {
    return this.evaluateScopes([{ samples }], nowMs);
  }

  /** Returns whether any alert in scope changed (or a notification went out). */
  private evaluateScopes(scopes: readonly EvaluationScope[], nowMs: number): boolean {
    this.startedMs ??= nowMs;
    const before = this.checkpoint(scopes);
    const durableBefore = this.durableState(scopes);
    this.deps.consumer.begin(nowMs);
    let sent: boolean;
    try {
      for (const scope of scopes) this.hand(this.transition(scope, new SampleIndex(scope.samples), nowMs), nowMs);
      sent = this.deps.consumer.commit(nowMs);
    } catch (error) {
      this.deps.consumer.rollback();
      this.rollback(before, scopes);
      throw error;
    }
    // Most evaluations change nothing; serialising every alert of the fleet after each run would not be
    // free. A notification alone (a reminder, a resend) changes what was notified, which is the log's.
    const durableChanged = this.durableState(scopes) !== durableBefore;
    if (durableChanged) this.deps.save(sent);
    return sent || durableChanged;
  }

  /** Gives one scope's alerts to the consumer; an ended alert closes unless the consumer holds it open. */
  private hand(updates: readonly AlertUpdate[], nowMs: number): void {
    const keptOpen = this.deps.consumer.take(updates, nowMs);
    for (const update of updates) {
      if (update.kind === 'ended' && !keptOpen.has(update.alert.fingerprint)) this.forget(update.alert.fingerprint, update.alert);
    }
  }

  /** One scope's verdicts, in the order reached: seen alerts first, then those no longer seen. */
  private transition(scope: EvaluationScope, index: SampleIndex, nowMs: number): AlertUpdate[] {
    const unreachable = new Set(
      index
        .all('avaxmon_target_up')
        .filter((sample) => sample.value === 0)
        .map((sample) => sample.labels.target),
    );
    const frozen = (alert: { rule: string; labels: Readonly<Record<string, string>> }) =>
      alert.rule !== TARGET_DOWN_RULE && unreachable.has(alert.labels.target);
    const updates: AlertUpdate[] = [];
    const firing: AlertUpdate[] = [];
    const seen = new Set<string>();
    // A rule that threw says nothing about its alerts: they are kept as they are, not resolved.
    const failedRules = new Set<string>();
    for (const { rule, labels, candidate } of this.candidates(scope, index, nowMs, failedRules)) {
      const fingerprint = fingerprintOf(labels);
      seen.add(fingerprint);
      const alert = this.alerts.get(fingerprint) ?? this.open(fingerprint, rule, labels, nowMs);
      const previousAnnotations = alert.annotations;
      alert.annotations = annotationsOf(rule, candidate);
      alert.unknownSinceMs = undefined;
      alert.stale = undefined;
      if (frozen(alert)) {
        updates.push({ kind: 'kept', alert, holds: true });
        continue;
      }
      // Same alert, new severity (a tiered rule escalating): `for` keeps running; receivers get the old label set resolved.
      const previous = alert.labels.severity !== labels.severity ? { labels: alert.labels, annotations: previousAnnotations } : undefined;
      alert.labels = labels;
      if (alert.state === 'pending' && nowMs - alert.activeSinceMs >= this.config.rules[rule].forMs) {
        alert.state = 'firing';
        alert.firingSinceMs = nowMs;
      }
      if (alert.state === 'firing') firing.push({ kind: 'firing', alert, previous });
    }
    for (const [fingerprint, alert] of this.alertsIn([scope])) {
      if (seen.has(fingerprint)) continue;
      const kept = failedRules.has(alert.rule) || frozen(alert) || this.holdUnknown(alert, index, nowMs) || this.relearning(alert, nowMs);
      updates.push(kept ? { kind: 'kept', alert, holds: false } : { kind: 'ended', alert });
    }
    // Firing alerts come last: whether one is inhibited depends on every other alert's state.
    return [...updates, ...firing];
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

  /** The alerts in scope as JSON (cheap to compare and to restore). */
  private checkpoint(scopes: readonly EvaluationScope[]): string {
    return JSON.stringify(this.alertsIn(scopes).map(([, alert]) => alert));
  }

  private rollback(before: string, scopes: readonly EvaluationScope[]): void {
    for (const [fingerprint, alert] of this.alertsIn(scopes)) this.forget(fingerprint, alert);
    for (const alert of JSON.parse(before) as AlertRecord[]) this.remember(fingerprintOf(alert.labels), alert);
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
    // One set for the scope's rules, emptied for each: a settled rule's families are copied (SettledRules).
    const reads = scope.settled ? new Set<string>() : undefined;
    // Per rule and target: a rule sees one target at a time, and forgets what it no longer sees.
    const memoryScope = scope.target ?? FLEET_SCOPE;
    const wallMs = this.wallMs(nowMs);
    for (const [name, rule] of ruleRegistry) {
      const settings = this.config.rules[name];
      if (!settings?.enabled || !coversRule(scope, name)) continue;
      reads?.clear();
      index.reads = reads;
      const inputs = new RuleInputs(index, settings.params, wallMs, this.memories, name, memoryScope, this.deps.collectors);
      let found: Candidate[];
      try {
        found = rule.evaluate(inputs);
      } catch (error) {
        this.deps.log.error({ rule: name, err: error }, 'Alert rule failed to evaluate');
        failedRules.add(name);
        continue;
      } finally {
        index.reads = undefined;
        this.memories.dropIfEmpty(name, memoryScope);
      }
      if (reads && found.length === 0 && inputs.samplesAlone && !this.memories.holds(name, memoryScope)) scope.settled!(name, reads);
      for (const candidate of markStale(rule, index, found)) {
        const labels = { alertname: name, ...candidate.labels, severity: settings.severity ?? candidate.severity };
        yield { rule: name, labels, candidate };
      }
    }
  }

  /** The wall time of a steady time: what rules compare with. */
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
    };
    this.remember(fingerprint, alert);
    return alert;
  }

  /**
   * True while a firing alert's data is missing: as long as a collector of its target fails, else
   * up to UNKNOWN_HOLD_MS. The data is missing when no source series carries the alert's identity:
   * another series of the same target says nothing about it. A pending alert is not held: with its
   * data unknown it cannot go on to fire, and no receiver was told of it.
   */
  private holdUnknown(alert: AlertRecord, index: SampleIndex, nowMs: number): boolean {
    const sources = ruleRegistry.get(alert.rule)?.sources ?? [];
    const { alertname: _alertname, severity: _severity, ...identity } = alert.labels;
    const known = sources.some(({ metric, labels }) =>
      index.all(metric).some((sample) => sameLabels(pick(sample.labels, labels), identity)),
    );
    if (known || alert.state !== 'firing' || !this.config.rules[alert.rule]?.enabled) return false;
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

function annotationsOf(rule: string, candidate: Candidate): Record<string, string> {
  return {
    summary: candidate.summary,
    description: candidate.description,
    runbook_url: runbookUrl(rule),
    ...candidate.annotations,
  };
}

/**
 * What a rule is given for one evaluation, and whether its verdict came from the samples alone: a
 * rule that read the clock, a memory or a collector's state may find otherwise with the same samples
 * later. A class, not an object literal with getters, which made a closure per getter for every
 * rule of every evaluation: thousands a second at 1,000 nodes.
 */
class RuleInputs implements RuleContext {
  samplesAlone: boolean;

  constructor(
    readonly samples: SampleIndex,
    readonly params: Readonly<Record<string, number>>,
    private readonly wallMs: number,
    private readonly memories: RuleMemories,
    private readonly rule: string,
    private readonly memoryScope: string,
    private readonly collectorLookup: CollectorLookup | undefined,
  ) {
    this.samplesAlone = !memories.holds(rule, memoryScope);
  }

  get nowMs(): number {
    this.samplesAlone = false;
    return this.wallMs;
  }

  get memory(): Map<string, unknown> {
    return this.memories.of(this.rule, this.memoryScope);
  }

  get collectors(): CollectorLookup | undefined {
    this.samplesAlone = false;
    return this.collectorLookup;
  }
}
