import { human } from '../prometheus-twin.js';
import { seriesRule } from './series-rule.js';

export const avalancheL1ValidatorDisconnected = seriesRule({
  name: 'AvalancheL1ValidatorDisconnected',
  metric: 'avaxmon_subnet_validator_connected',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '5m',
  severity: 'critical',
  prometheus: {
    group: 'avaxmon-connectivity',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel }) => `avaxmon_subnet_validator_connected{${sel}} == 0`,
        summary: () => `L1 validator {{ $labels.node_id }} is not connected`,
        description: ({ forSeconds }) =>
          `The validators API of L1 {{ $labels.subnet }} on {{ $labels.target }} has reported {{ $labels.node_id }} as disconnected for more than ${human(forSeconds)}.`,
      },
    ],
  },
  description: "The L1's validators API reports a watched validator as not connected (avaxmon_subnet_validator_connected == 0).",
  check: (value) => (value === 0 ? 'critical' : undefined),
  summary: (labels) => `L1 validator ${labels.node_id} is not connected`,
  detail: (labels) =>
    `The validators API of L1 ${labels.subnet} on ${labels.target} reports ${labels.node_id} as disconnected; it loses uptime on the L1 while it stays so.`,
});
