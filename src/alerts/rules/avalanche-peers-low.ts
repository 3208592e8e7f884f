import { seriesRule } from './series-rule.js';

export const avalanchePeersLow = seriesRule({
  name: 'AvalanchePeersLow',
  metric: 'avaxmon_node_peers',
  labels: ['target'],
  defaultFor: '5m',
  severity: 'warning',
  params: { threshold: { kind: 'number', default: 20, help: 'fires below this many connected peers' } },
  description: 'The number of connected peers is below `threshold` (avaxmon_node_peers < 20).',
  check: (value, ctx) => (value < ctx.params.threshold ? 'warning' : undefined),
  summary: (labels, value) => `Node ${labels.target} has only ${value} peers`,
  detail: (labels, value, ctx) => `${labels.target} is connected to ${value} peers, below the threshold of ${ctx.params.threshold}.`,
});
