import { seriesRule } from './series-rule.js';

export const avalancheNodeNotBootstrapped = seriesRule({
  name: 'AvalancheNodeNotBootstrapped',
  metric: 'avaxmon_chain_bootstrapped',
  labels: ['target', 'chain'],
  defaultFor: '30m',
  severity: 'warning',
  description: 'A chain is still not bootstrapped after `for` (avaxmon_chain_bootstrapped == 0).',
  check: (value) => (value === 0 ? 'warning' : undefined),
  summary: (labels) => `Chain ${labels.chain} is not bootstrapped on ${labels.target}`,
  detail: (labels) => `info.isBootstrapped reports chain ${labels.chain} not bootstrapped on ${labels.target}.`,
});
