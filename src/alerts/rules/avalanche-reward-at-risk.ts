import { formatSeconds, seriesRule } from './series-rule.js';

export const avalancheRewardAtRisk = seriesRule({
  name: 'AvalancheRewardAtRisk',
  metric: 'avaxmon_validator_downtime_budget_seconds',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '5m',
  severity: ['warning', 'critical'],
  params: { warning: { kind: 'duration', default: 86_400, help: 'warns when the downtime budget left is under this' } },
  description: 'A watched validator may still be offline for less than 24h before missing the uptime requirement (warning); none left means the reward is lost (critical).',
  check: (value, ctx) => (value <= 0 ? 'critical' : value < ctx.params.warning ? 'warning' : undefined),
  summary: (labels, value) =>
    value <= 0 ? `Validator ${labels.node_id} has lost its staking reward` : `Validator ${labels.node_id} can afford only ${formatSeconds(value)} more downtime`,
  detail: (labels, value) =>
    value <= 0
      ? `The downtime budget of ${labels.node_id} (target ${labels.target}) is exhausted: its uptime can no longer reach the reward requirement.`
      : `${labels.node_id} (target ${labels.target}) may be offline for ${formatSeconds(value)} more before its uptime falls below the reward requirement.`,
});
