import { human } from '../prometheus-twin.js';
import { seriesRule } from './series-rule.js';

/** An L1 validator that is listed but out of balance is AvalancheL1ValidatorInactive's, not this rule's too. */
export const avalancheValidatorNotActive = seriesRule({
  name: 'AvalancheValidatorNotActive',
  metric: 'avaxmon_validator_active',
  alsoReads: ['avaxmon_l1_validator_active'],
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '5m',
  severity: 'critical',
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel }) =>
          `avaxmon_validator_active{${sel}} == 0 unless on (job, instance, target, subnet, node_id) avaxmon_l1_validator_active{${sel}} == 0`,
        summary: () => `Node {{ $labels.node_id }} is not in the validator set`,
        description: ({ forSeconds }) =>
          `Watched node {{ $labels.node_id }} has not been in the current validator set of subnet {{ $labels.subnet }} (target {{ $labels.target }}) for more than ${human(forSeconds)}.`,
      },
    ],
  },
  description:
    'A watched node id is not in the current validator set (avaxmon_validator_active == 0); an inactive L1 validator is left to AvalancheL1ValidatorInactive.',
  check: (value, ctx, sample) => {
    if (value !== 0) return undefined;
    const { target, subnet, node_id } = sample.labels;
    return ctx.samples.valueOf('avaxmon_l1_validator_active', { target, subnet, node_id }) === 0 ? undefined : 'critical';
  },
  summary: (labels) => `${labels.node_id} is not in the validator set of ${labels.subnet}`,
  detail: (labels) =>
    `The watched node ${labels.node_id} is not a current validator of subnet ${labels.subnet} (seen from ${labels.target}).`,
});
