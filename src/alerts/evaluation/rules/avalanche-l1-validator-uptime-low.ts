import { human, percent } from '../prometheus-twin.js';
import { formatPercent, seriesRule } from './series-rule.js';

export const avalancheL1ValidatorUptimeLow = seriesRule({
  name: 'AvalancheL1ValidatorUptimeLow',
  metric: 'avaxmon_subnet_validator_uptime_ratio',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '5m',
  severity: 'warning',
  params: { threshold: { kind: 'number', default: 0.8, help: 'fires below this uptime on the L1, as the node’s tracker sees it' } },
  prometheus: {
    group: 'avaxmon-connectivity',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel, p }) => `avaxmon_subnet_validator_uptime_ratio{${sel}} < ${p.threshold}`,
        summary: () => `Uptime of L1 validator {{ $labels.node_id }} is low`,
        description: ({ p, forSeconds }) =>
          `The uptime of {{ $labels.node_id }} on L1 {{ $labels.subnet }}, as {{ $labels.target }} tracks it, has been {{ $value | humanizePercentage }} for more than ${human(forSeconds)} (warning below ${percent(p.threshold)}).`,
      },
    ],
  },
  description:
    "A watched validator's uptime on an L1 is below `threshold` (80%) as the node's uptime tracker sees it (avaxmon_subnet_validator_uptime_ratio).",
  check: (value, ctx) => (value < ctx.params.threshold ? 'warning' : undefined),
  summary: (labels, value) => `Uptime of L1 validator ${labels.node_id} is ${formatPercent(value)}`,
  detail: (labels, value, ctx) =>
    `The uptime of ${labels.node_id} on L1 ${labels.subnet}, as ${labels.target} tracks it, is ${formatPercent(value)}, below ${formatPercent(ctx.params.threshold)}; L1s that reward by uptime proofs use this figure.`,
});
