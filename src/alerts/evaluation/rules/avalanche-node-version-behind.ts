import { human, percent } from '../prometheus-twin.js';
import { formatPercent, seriesRule } from './series-rule.js';

export const avalancheNodeVersionBehind = seriesRule({
  name: 'AvalancheNodeVersionBehind',
  metric: 'avaxmon_node_peers_newer_version_stake_ratio',
  labels: ['target'],
  defaultFor: '1h',
  severity: 'warning',
  params: {
    threshold: {
      kind: 'number',
      default: 0.5,
      help: 'fires when more than this share of the connected validator stake runs a newer version',
    },
  },
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel, p }) => `avaxmon_node_peers_newer_version_stake_ratio{${sel}} > ${p.threshold}`,
        summary: () => `Node {{ $labels.target }} runs an older AvalancheGo than most validator stake`,
        description: ({ p, forSeconds }) =>
          `{{ $value | humanizePercentage }} of the stake of the validators connected to {{ $labels.target }} runs a newer AvalancheGo version than it does (more than ${percent(p.threshold)} for ${human(forSeconds)}).`,
      },
    ],
  },
  description:
    'Connected validators holding most of their stake run a newer AvalancheGo than this node (avaxmon_node_peers_newer_version_stake_ratio > 0.5).',
  check: (ratio, ctx) => (ratio > ctx.params.threshold ? 'warning' : undefined),
  summary: (labels) => `Node ${labels.target} runs an older AvalancheGo than most validator stake`,
  detail: (labels, ratio) =>
    `${formatPercent(ratio)} of the stake of the validators connected to ${labels.target} runs a newer AvalancheGo version; plan an upgrade.`,
});
