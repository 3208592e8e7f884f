import type { Labels, Sample } from '../../../metrics/metric-desc.js';
import type { AlertRule, Candidate, ParamSpec, PrometheusTwin, RuleContext, Severity } from '../rule.js';
import { pick } from '../sample-index.js';

export interface SeriesRuleSpec {
  readonly name: string;
  readonly metric: string;
  /** The labels of the metric that identify an alert (always including `target`). */
  readonly labels: readonly string[];
  readonly defaultFor: string;
  readonly severity: Severity | readonly Severity[];
  readonly params?: Readonly<Record<string, ParamSpec>>;
  readonly description: string;
  /** See AlertRule.alsoReads. */
  readonly alsoReads?: readonly string[];
  readonly prometheus: PrometheusTwin;
  /** See AlertRule.historyMs. */
  readonly historyMs?: (params: Readonly<Record<string, number>>) => number;
  /** The value the rule judges and tells, when it is not the sample's own (AvalancheRewardAtRisk's budget from stale facts). */
  readonly value?: (sample: Sample, ctx: RuleContext) => number;
  /** The severity of this series now, or undefined when the condition does not hold. */
  readonly check: (value: number, ctx: RuleContext, sample: Sample) => Severity | undefined;
  readonly summary: (labels: Labels, value: number, ctx: RuleContext) => string;
  readonly detail: (labels: Labels, value: number, ctx: RuleContext) => string;
}

/** Most rules test one metric per series against a threshold; this builds such a rule. */
export function seriesRule(spec: SeriesRuleSpec): AlertRule {
  return {
    name: spec.name,
    defaultFor: spec.defaultFor,
    severity: spec.severity,
    params: spec.params ?? {},
    description: spec.description,
    sources: [{ metric: spec.metric, labels: spec.labels }],
    alsoReads: spec.alsoReads,
    historyMs: spec.historyMs,
    prometheus: spec.prometheus,
    evaluate(ctx) {
      const candidates: Candidate[] = [];
      for (const sample of ctx.samples.all(spec.metric)) {
        const value = spec.value ? spec.value(sample, ctx) : sample.value;
        const severity = spec.check(value, ctx, sample);
        if (!severity) continue;
        const labels = pick(sample.labels, spec.labels);
        candidates.push({
          labels,
          severity,
          summary: spec.summary(labels, value, ctx),
          description: spec.detail(labels, value, ctx),
        });
      }
      return candidates;
    },
  };
}

export const formatPercent = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;

/** Seconds as a short human duration: "3d 4h", "2h 5m", "45s". */
export function formatSeconds(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(Math.round(seconds));
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size || (unit === 's' && parts.length === 0)) parts.push(`${Math.floor(rest / size)}${unit}`);
    rest %= size;
    if (parts.length === 2) break;
  }
  return sign + parts.join(' ');
}
