import { human, percent } from '../prometheus-twin.js';
import { formatPercent, seriesRule } from './series-rule.js';

/** AvalancheGo's own network health check fails below 80% connected stake; a validator there is barely heard. */
export const avalancheStakeConnectedLow = seriesRule({
  name: 'AvalancheStakeConnectedLow',
  metric: 'avaxmon_network_validator_connected_ratio',
  labels: ['target', 'subnet'],
  defaultFor: '5m',
  severity: 'critical',
  params: {
    threshold: { kind: 'number', default: 0.8, help: 'fires below this stake-weighted share of the set the node is connected to' },
  },
  prometheus: {
    group: 'avaxmon-connectivity',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel, p }) => `avaxmon_network_validator_connected_ratio{${sel}} < ${p.threshold}`,
        summary: () => `Node {{ $labels.target }} is connected to too little stake of {{ $labels.subnet }}`,
        description: ({ p, forSeconds }) =>
          `{{ $labels.target }} has been connected to validators holding only {{ $value | humanizePercentage }} of the stake of {{ $labels.subnet }} for more than ${human(forSeconds)} (page below ${percent(p.threshold)}).`,
      },
    ],
  },
  description:
    'The node is connected to less than `threshold` (80%) of the stake of the primary network or an L1 (avaxmon_network_validator_connected_ratio, network_wide mode).',
  check: (value, ctx) => (value < ctx.params.threshold ? 'critical' : undefined),
  summary: (labels) => `Node ${labels.target} is connected to too little stake of ${labels.subnet}`,
  detail: (labels, value, ctx) =>
    `${labels.target} is connected to validators holding ${formatPercent(value)} of the stake of ${labels.subnet}, below ${formatPercent(ctx.params.threshold)}; its queries and gossip reach too few validators.`,
});
