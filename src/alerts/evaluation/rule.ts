import type { Labels } from '../../metrics/metric-desc.js';
import type { SampleIndex } from './sample-index.js';

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A tunable of a rule: a plain number (ratios, counts) or a duration, given in the config as "5m". */
export interface ParamSpec {
  readonly kind: 'number' | 'duration';
  /** Numbers as they are; durations in seconds, the unit of the metrics the rules compare with. */
  readonly default: number;
  readonly help: string;
}

/** A rule's settings after the config's overrides are applied to its defaults. */
export interface RuleSettings {
  readonly enabled: boolean;
  readonly forMs: number;
  /** Overrides the severity of every alert the rule produces, when set in the config. */
  readonly severity?: Severity;
  readonly params: Readonly<Record<string, number>>;
}

export interface RuleContext {
  readonly samples: SampleIndex;
  readonly nowMs: number;
  readonly params: Readonly<Record<string, number>>;
  /** Survives between evaluations of this rule (e.g. a window of past values). */
  readonly memory: Map<string, unknown>;
  /** What the daemon knows of a collector beyond its series: its interval and last error. */
  readonly collectors?: CollectorLookup;
}

export interface CollectorInfo {
  readonly intervalMs: number;
  /** Already scrubbed of secrets. */
  readonly lastError?: string;
}

export type CollectorLookup = (target: string, collector: string) => CollectorInfo | undefined;

/** One series for which the rule's condition holds now. */
export interface Candidate {
  /** `target` plus the rule's own labels; `alertname` and `severity` are added by the engine. */
  readonly labels: Labels;
  readonly severity: Severity;
  readonly summary: string;
  readonly description: string;
  /** Extra annotations, e.g. the list of failing checks. */
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * A built-in rule, Prometheus-like: a function from the current samples and the time to the series
 * for which the condition holds. The engine owns `for` and the lifecycle; dispatch the notifications.
 */
export interface AlertRule {
  readonly name: string;
  readonly defaultFor: string;
  /** The severity in the docs table; tiered rules pick per candidate. */
  readonly severity: Severity | readonly Severity[];
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly description: string;
  /** The series the condition reads; with none of them left for an alert, its data is unknown, not fine. */
  readonly sources: readonly RuleSource[];
  /**
   * Set for a rule that compares targets or reads series without a target (receivers): every family
   * it reads. It is evaluated over those families of every target on the engine's fleet tick, never
   * per collector run.
   */
  readonly fleetReads?: readonly string[];
  /**
   * Families read besides `sources`, for a threshold or the text (e.g. the validator count a peer
   * floor scales with). The daemon keeps samples only of the families some rule reads.
   */
  readonly alsoReads?: readonly string[];
  /**
   * For rules whose condition depends on what was seen before (memory here or in a collector): how
   * long they must watch after a start before "condition false" means anything. Until then an alert
   * restored from before the restart is kept, not resolved.
   */
  readonly historyMs?: (params: Readonly<Record<string, number>>) => number;
  /** The same rule for Prometheus users, rendered into alerts/avaxmon.rules.yaml. */
  readonly prometheus: PrometheusTwin;
  evaluate(ctx: RuleContext): Candidate[];
}

/** A metric a rule reads, and its labels that make up the identity of the rule's alerts. */
export interface RuleSource {
  readonly metric: string;
  readonly labels: readonly string[];
}

export const RUNBOOK_BASE = 'https://github.com/avaxmon/avaxmon/blob/main/docs/runbooks.md#';

export function runbookUrl(rule: string): string {
  return RUNBOOK_BASE + rule.toLowerCase();
}

/**
 * A built-in rule's Prometheus twin, written beside its evaluation so the two are one definition:
 * the thresholds come from the rule's own params (the values the daemon runs with), `for` and the
 * runbook from the rule. scripts/generate-rules.mjs renders every twin into alerts/avaxmon.rules.yaml;
 * test/alerts/twin-equivalence.test.ts replays the twins' promtool cases through the built-in engine.
 */
export interface PrometheusTwin {
  readonly group: TwinGroup;
  /** One per severity for a tiered rule: Prometheus cannot change an alert's severity label, so they overlap. */
  readonly alerts: readonly TwinAlert[];
}

export type TwinGroup = 'avaxmon-self' | 'avaxmon-node' | 'avaxmon-validator' | 'avaxmon-chain' | 'avaxmon-connectivity';

/** What a twin's texts are written from: the job selector, and the rule's params as the config sets them. */
export interface TwinValues {
  readonly sel: string;
  readonly p: Readonly<Record<string, number>>;
  /** The rule's `for`, in seconds, for texts that state it. */
  readonly forSeconds: number;
}

type TwinText = (values: TwinValues) => string;

export interface TwinAlert {
  readonly severity: Severity;
  readonly expr: TwinText;
  readonly summary: TwinText;
  readonly description: TwinText;
}
