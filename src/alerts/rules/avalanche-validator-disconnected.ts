import { seriesRule } from './series-rule.js';

export const avalancheValidatorDisconnected = seriesRule({
  name: 'AvalancheValidatorDisconnected',
  metric: 'avaxmon_validator_connected',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '5m',
  severity: 'critical',
  description: 'The P-Chain reports a watched validator as not connected (avaxmon_validator_connected == 0).',
  check: (value) => (value === 0 ? 'critical' : undefined),
  summary: (labels) => `Validator ${labels.node_id} is not connected`,
  detail: (labels) => `platform.getCurrentValidators reports ${labels.node_id} on subnet ${labels.subnet} as disconnected (seen from ${labels.target}).`,
});
