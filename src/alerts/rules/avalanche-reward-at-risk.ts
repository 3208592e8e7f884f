import type { Labels } from '../../metrics/metric-desc.js';
import type { RuleContext } from '../rule.js';
import { formatSeconds, seriesRule } from './series-rule.js';

/** ACP-236: a cycle that misses its requirement ends an auto-renewed validation, not just its reward. */
function renewalNote(labels: Labels, ctx: RuleContext): string {
  const renews = ctx.samples.valueOf('avaxmon_validator_auto_renew', { target: labels.target, subnet: labels.subnet, node_id: labels.node_id });
  return renews === 1 ? ' It is auto-renewed: missing the requirement in this cycle removes it from the validator set at the end of the cycle.' : '';
}

const whose = (labels: Labels) => (labels.view === 'network' ? 'as the other validators see it (info.uptime)' : `as ${labels.target} sees it`);

export const avalancheRewardAtRisk = seriesRule({
  name: 'AvalancheRewardAtRisk',
  metric: 'avaxmon_validator_downtime_budget_seconds',
  alsoReads: ['avaxmon_validator_auto_renew'],
  labels: ['target', 'subnet', 'node_id', 'view'],
  defaultFor: '5m',
  severity: ['warning', 'critical'],
  params: { warning: { kind: 'duration', default: 86_400, help: 'warns when the downtime budget left is under this' } },
  description:
    "A watched validator may still be offline for less than 24h before missing its period's (or cycle's) uptime requirement (warning); a negative budget means this period's reward is lost (critical). A budget of exactly 0 still earns it: AvalancheGo rewards uptime at or above the requirement. For this node the budget uses the network's view (info.uptime).",
  check: (value, ctx) => (value < 0 ? 'critical' : value < ctx.params.warning ? 'warning' : undefined),
  summary: (labels, value) =>
    value < 0 ? `Validator ${labels.node_id} has lost this period's staking reward` : `Validator ${labels.node_id} can afford only ${formatSeconds(value)} more downtime`,
  detail: (labels, value, ctx) =>
    (value < 0
      ? `The downtime budget of ${labels.node_id} (target ${labels.target}) is exhausted: its uptime ${whose(labels)} can no longer reach its requirement this period, so this period's reward is lost.`
      : `${labels.node_id} (target ${labels.target}) may be offline for ${formatSeconds(value)} more before its uptime ${whose(labels)} falls below its requirement for this period.`) +
    renewalNote(labels, ctx),
});
