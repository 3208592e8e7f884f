import { formatPercent, seriesRule } from './series-rule.js';

export const avalancheNodeVersionBehind = seriesRule({
  name: 'AvalancheNodeVersionBehind',
  metric: 'avaxmon_node_peers_newer_version_ratio',
  labels: ['target'],
  defaultFor: '1h',
  severity: 'warning',
  params: { threshold: { kind: 'number', default: 0.5, help: 'fires when more than this share of peers runs a newer version' } },
  description: 'Most peers (unweighted) run a newer AvalancheGo than this node (avaxmon_node_peers_newer_version_ratio > 0.5).',
  check: (ratio, ctx) => (ratio > ctx.params.threshold ? 'warning' : undefined),
  summary: (labels) => `Node ${labels.target} runs an older AvalancheGo than most peers`,
  detail: (labels, ratio) => `${formatPercent(ratio)} of the peers of ${labels.target} run a newer AvalancheGo version; plan an upgrade.`,
});
