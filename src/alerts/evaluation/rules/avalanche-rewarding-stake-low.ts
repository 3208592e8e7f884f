import { percent } from '../prometheus-twin.js';
import { formatPercent, seriesRule } from './series-rule.js';

/**
 * The reward of a validation is decided by Snowman consensus on the reward proposal, each validator
 * preferring "reward" when it saw the node at or above the requirement. A poll on Mainnet samples
 * k = 20 validators by stake and needs alpha = 15 alike (75%): below 75% of stake voting to reward,
 * a vote taken now would not reliably go the reward's way. It is a running ratio, and info.uptime
 * counts disconnected stake as not rewarding, so it warns; AvalancheRewardAtRisk pages.
 */
export const avalancheRewardingStakeLow = seriesRule({
  name: 'AvalancheRewardingStakeLow',
  metric: 'avaxmon_node_uptime_rewarding_stake_ratio',
  labels: ['target', 'subnet'],
  defaultFor: '15m',
  severity: 'warning',
  params: {
    warning: { kind: 'number', default: 0.75, help: 'warns when less than this share of stake would vote to reward' },
  },
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel, p }) => `avaxmon_node_uptime_rewarding_stake_ratio{${sel}} < ${p.warning}`,
        summary: ({ p }) => `Less than ${percent(p.warning)} of stake would vote to reward {{ $labels.target }}`,
        description: () =>
          `Only {{ $value | humanizePercentage }} of stake sees {{ $labels.target }} at or above its uptime requirement (info.uptime rewardingStakePercentage, disconnected stake counted as not rewarding), below the 15 of 20 a consensus poll needs; a vote taken now would not reliably reward it. The vote is taken at the end of the period, see the downtime budget.`,
      },
    ],
  },
  description:
    'Less than 75% (alpha/k = 15/20, what a consensus poll needs) of stake sees this node at or above its uptime requirement (info.uptime rewardingStakePercentage, which counts disconnected stake as not rewarding). A running ratio: a warning; AvalancheRewardAtRisk pages when the budget is nearly spent.',
  check: (ratio, ctx) => (ratio < ctx.params.warning ? 'warning' : undefined),
  summary: (labels, ratio) => `Only ${formatPercent(ratio)} of stake would vote to reward ${labels.target}`,
  detail: (labels, ratio) =>
    `${formatPercent(ratio)} of stake sees ${labels.target} at or above its uptime requirement (info.uptime rewardingStakePercentage, disconnected stake counted as not rewarding); a vote taken now would not reliably reward it. The vote is taken at the end of the period: see the downtime budget.`,
});
