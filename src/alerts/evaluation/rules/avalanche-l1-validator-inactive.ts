import { human } from '../prometheus-twin.js';
import { seriesRule } from './series-rule.js';

export const avalancheL1ValidatorInactive = seriesRule({
  name: 'AvalancheL1ValidatorInactive',
  metric: 'avaxmon_l1_validator_active',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '5m',
  severity: 'critical',
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel }) => `avaxmon_l1_validator_active{${sel}} == 0`,
        summary: () => `L1 validator {{ $labels.node_id }} is inactive`,
        description: ({ forSeconds }) =>
          `L1 validator {{ $labels.node_id }} on {{ $labels.subnet }} (target {{ $labels.target }}) has been inactive for more than ${human(forSeconds)}, usually because its balance ran out.`,
      },
    ],
  },
  description: 'An L1 validator is inactive (avaxmon_l1_validator_active == 0), usually because its balance ran out.',
  check: (value) => (value === 0 ? 'critical' : undefined),
  summary: (labels) => `L1 validator ${labels.node_id} is inactive`,
  detail: (labels) =>
    `L1 validator ${labels.node_id} on ${labels.subnet} is inactive; it does not validate until its balance is topped up.`,
});
