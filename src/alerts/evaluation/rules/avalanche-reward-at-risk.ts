import type { Labels, Sample } from '../../../metrics/metric-desc.js';
import type { RuleContext, Severity } from '../rule.js';
import { FACTS_AGE } from '../../../collectors/last-good-facts.js';
import { budgetAgeSeconds, downtimeBudgetLeft, downtimeBudgetLeftExpr } from '../downtime-budget-left.js';
import { formatSeconds, seriesRule } from './series-rule.js';

/** ACP-236: a cycle that misses its requirement ends an auto-renewed validation, not just its reward. */
function renewalNote(labels: Labels, ctx: RuleContext): string {
  const renews = ctx.samples.valueOf('avaxmon_validator_auto_renew', {
    target: labels.target,
    subnet: labels.subnet,
    node_id: labels.node_id,
  });
  return renews === 1
    ? ' It is auto-renewed: missing the requirement in this cycle removes it from the validator set at the end of the cycle.'
    : '';
}

/** From stale facts: how old they are, and that the budget told already counts that time as downtime. */
function staleNote(labels: Labels, ctx: RuleContext): string {
  const age = budgetAgeSeconds(ctx.samples, labels.target);
  return age > 0
    ? ` The budget is from the validators collector's last good run ${formatSeconds(age)} ago, less those ${formatSeconds(age)}: the node may have been down since.`
    : '';
}

const whose = (labels: Labels) =>
  labels.view === 'network' ? 'as the deciding share of the stake sees it' : `as ${labels.target} sees it`;

/**
 * The budget left against two windows, each capped by a share of all the downtime the period allows,
 * so a short period (a 14-day cycle at 90% allows 33.6 h) does not start out "at risk": critical once
 * less than `critical` (a day) and less than a quarter of the allowance is left, or none at all;
 * warning once less than `warning` (7 days) and less than half of it is left.
 */
function severityOf(budget: number, ctx: RuleContext, sample: Sample): Severity | undefined {
  const { target, subnet, node_id } = sample.labels;
  const allowance =
    ctx.samples.valueOf('avaxmon_validator_downtime_allowance_seconds', { target, subnet, node_id }) ?? Number.POSITIVE_INFINITY;
  if (budget < 0 || budget < Math.min(ctx.params.critical, allowance / 4)) return 'critical';
  return budget < Math.min(ctx.params.warning, allowance / 2) ? 'warning' : undefined;
}

export const avalancheRewardAtRisk = seriesRule({
  name: 'AvalancheRewardAtRisk',
  metric: 'avaxmon_validator_downtime_budget_seconds',
  alsoReads: ['avaxmon_validator_auto_renew', 'avaxmon_validator_downtime_allowance_seconds', FACTS_AGE],
  labels: ['target', 'subnet', 'node_id', 'view'],
  defaultFor: '5m',
  severity: ['warning', 'critical'],
  params: {
    warning: {
      kind: 'duration',
      default: 7 * 86_400,
      help: 'warns when the downtime budget left is under this (and under half of what the period allows)',
    },
    critical: {
      kind: 'duration',
      default: 86_400,
      help: 'pages when the downtime budget left is under this (and under a quarter of what the period allows), or spent',
    },
  },
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel, p }) => `
          ${downtimeBudgetLeftExpr(sel)} < ${p.warning}
            and on (job, instance, target, subnet, node_id)
          (${downtimeBudgetLeftExpr(sel)} / on (job, instance, target, subnet, node_id) group_left avaxmon_validator_downtime_allowance_seconds{${sel}} < 0.5)
        `,
        summary: () => `Validator {{ $labels.node_id }} is running out of downtime budget`,
        description: () =>
          `Validator {{ $labels.node_id }} on subnet {{ $labels.subnet }} (target {{ $labels.target }}, view {{ $labels.view }}) can be offline for only {{ $value | humanizeDuration }} more before its uptime falls below its requirement for this period.`,
      },
      {
        severity: 'critical',
        expr: ({ sel, p }) => `
          ${downtimeBudgetLeftExpr(sel)} < 0
            or
          (
            ${downtimeBudgetLeftExpr(sel)} < ${p.critical}
              and on (job, instance, target, subnet, node_id)
            (${downtimeBudgetLeftExpr(sel)} / on (job, instance, target, subnet, node_id) group_left avaxmon_validator_downtime_allowance_seconds{${sel}} < 0.25)
          )
        `,
        summary: () =>
          `Validator {{ $labels.node_id }} has {{ if lt $value 0.0 }}lost this period's staking reward{{ else }}nearly spent its downtime budget{{ end }}`,
        description: () =>
          `Validator {{ $labels.node_id }} on subnet {{ $labels.subnet }} (target {{ $labels.target }}, view {{ $labels.view }}) {{ if lt $value 0.0 }}has overspent its downtime budget; its uptime can no longer reach its requirement this period, so this period's reward is lost{{ else }}can be offline for only {{ $value | humanizeDuration }} more before its uptime falls below its requirement for this period{{ end }}. An auto-renewed validator (avaxmon_validator_auto_renew 1) that misses the requirement in this cycle is removed at the cycle's end.`,
      },
    ],
  },
  description:
    "A watched validator's downtime budget (how much longer it may be offline before its uptime over the period, or cycle, misses the requirement) is nearly spent: under `critical` (1 day) and under a quarter of the period's allowance, or negative (this period's reward is lost), is critical; under `warning` (7 days) and under half the allowance is a warning. A budget of exactly 0 still earns the reward (AvalancheGo rewards uptime at or above the requirement). For this node the budget uses the uptime the deciding 75% of the connected stake sees. While the validators collector fails and its last good run's facts are served (stale, avaxmon_collector_facts_age_seconds), the budget judged is that run's less their age: the node may have been down all along.",
  value: (sample, ctx) => downtimeBudgetLeft(ctx.samples, sample.labels, sample.value),
  check: severityOf,
  summary: (labels, value) =>
    value < 0
      ? `Validator ${labels.node_id} has lost this period's staking reward`
      : `Validator ${labels.node_id} can afford only ${formatSeconds(value)} more downtime`,
  detail: (labels, value, ctx) =>
    (value < 0
      ? `The downtime budget of ${labels.node_id} (target ${labels.target}) is exhausted: its uptime ${whose(labels)} can no longer reach its requirement this period, so this period's reward is lost.`
      : `${labels.node_id} (target ${labels.target}) may be offline for ${formatSeconds(value)} more before its uptime ${whose(labels)} falls below its requirement for this period.`) +
    staleNote(labels, ctx) +
    renewalNote(labels, ctx),
});
