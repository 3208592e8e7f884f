import { seriesRule } from './series-rule.js';

export const avalancheValidatorNotActive = seriesRule({
  name: 'AvalancheValidatorNotActive',
  metric: 'avaxmon_validator_active',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '5m',
  severity: 'critical',
  description: 'A watched node id is not in the current validator set (avaxmon_validator_active == 0).',
  check: (value) => (value === 0 ? 'critical' : undefined),
  summary: (labels) => `${labels.node_id} is not in the validator set of ${labels.subnet}`,
  detail: (labels) => `The watched node ${labels.node_id} is not a current validator of subnet ${labels.subnet} (seen from ${labels.target}).`,
});
