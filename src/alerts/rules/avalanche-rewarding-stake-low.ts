import { formatPercent, seriesRule } from './series-rule.js';

/**
 * The reward of a validation is decided by Snowman consensus on the reward proposal, each validator
 * preferring "reward" when it saw the node at or above the requirement. A poll on Mainnet samples
 * K=20 validators by stake and needs alpha=15 alike (75%): below 75% of stake voting to reward, the
 * polls no longer reliably go the reward's way; below 90% some already fail.
 */
export const avalancheRewardingStakeLow = seriesRule({
  name: 'AvalancheRewardingStakeLow',
  metric: 'avaxmon_node_uptime_rewarding_stake_ratio',
  labels: ['target', 'subnet'],
  defaultFor: '15m',
  severity: ['warning', 'critical'],
  params: {
    warning: { kind: 'number', default: 0.9, help: 'warning when less than this share of stake would vote to reward' },
    critical: { kind: 'number', default: 0.75, help: 'critical when less than this share of stake would vote to reward' },
  },
  description:
    'Less than 90% (warning) or 75% (critical: below the alpha/K = 15/20 a consensus poll needs) of stake sees this node at or above its uptime requirement (info.uptime rewardingStakePercentage).',
  check: (ratio, ctx) => (ratio < ctx.params.critical ? 'critical' : ratio < ctx.params.warning ? 'warning' : undefined),
  summary: (labels, ratio) => `Only ${formatPercent(ratio)} of stake would vote to reward ${labels.target}`,
  detail: (labels, ratio) =>
    `${formatPercent(ratio)} of stake sees ${labels.target} at or above its uptime requirement (info.uptime rewardingStakePercentage); if it stays low until the period ends, the reward vote can go against it.`,
});
