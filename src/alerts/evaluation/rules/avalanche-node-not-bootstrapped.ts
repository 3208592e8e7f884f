import { human } from '../prometheus-twin.js';
import { seriesRule } from './series-rule.js';

export const avalancheNodeNotBootstrapped = seriesRule({
  name: 'AvalancheNodeNotBootstrapped',
  metric: 'avaxmon_chain_bootstrapped',
  labels: ['target', 'chain'],
  defaultFor: '30m',
  severity: 'warning',
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'warning',
        // One alert per chain, as the built-in rule: its health check's name is not the alert's.
        expr: ({ sel }) => `min without (check) (avaxmon_chain_bootstrapped{${sel}}) == 0`,
        summary: () => `Chain {{ $labels.chain }} is not bootstrapped on {{ $labels.target }}`,
        description: ({ forSeconds }) =>
          `Chain {{ $labels.chain }} on {{ $labels.target }} has not finished bootstrapping after ${human(forSeconds)}.`,
      },
    ],
  },
  description: 'A chain is still not bootstrapped after `for` (avaxmon_chain_bootstrapped == 0).',
  check: (value) => (value === 0 ? 'warning' : undefined),
  summary: (labels) => `Chain ${labels.chain} is not bootstrapped on ${labels.target}`,
  detail: (labels) => `info.isBootstrapped reports chain ${labels.chain} not bootstrapped on ${labels.target}.`,
});
