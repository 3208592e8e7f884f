import { human } from '../prometheus-twin.js';
import { seriesRule } from './series-rule.js';

/**
 * A healthy node connects to nearly every primary-network validator (about 1,500 on mainnet, a few
 * dozen on Fuji), so a fixed count means nothing across networks. With the primary network's
 * validator count known (network_wide mode), the floor is a share of it; without, an absolute count.
 */
export const avalanchePeersLow = seriesRule({
  name: 'AvalanchePeersLow',
  metric: 'avaxmon_node_peers',
  alsoReads: ['avaxmon_network_validators'],
  labels: ['target'],
  defaultFor: '5m',
  severity: 'warning',
  params: {
    min_ratio: { kind: 'number', default: 0.5, help: 'fires below this share of the primary network’s validator count, when known' },
    threshold: { kind: 'number', default: 20, help: 'fires below this many peers when the validator count is not known' },
  },
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel, p }) => `
          avaxmon_node_peers{${sel}} < on (job, instance, target) ${p.min_ratio} * avaxmon_network_validators{${sel}, subnet="primary"}
          or
          (avaxmon_node_peers{${sel}} < ${p.threshold} unless on (job, instance, target) avaxmon_network_validators{${sel}, subnet="primary"})
        `,
        summary: () => `Node {{ $labels.target }} has few peers`,
        description: ({ p, forSeconds }) =>
          `Node {{ $labels.target }} has had {{ $value }} connected peers for more than ${human(forSeconds)}, fewer than half of the primary network's validators (or, when their count is not collected, fewer than ${p.threshold}).`,
      },
    ],
  },
  description:
    'The node has fewer connected peers than `min_ratio` (50%) of the primary network’s validators (avaxmon_network_validators, network_wide mode), or, without that count, fewer than `threshold` (20).',
  check: (value, ctx, sample) =>
    value < floorOf(ctx.samples.valueOf('avaxmon_network_validators', { target: sample.labels.target, subnet: 'primary' }), ctx.params)
      ? 'warning'
      : undefined,
  summary: (labels, value) => `Node ${labels.target} has only ${value} peers`,
  detail: (labels, value, ctx) => {
    const validators = ctx.samples.valueOf('avaxmon_network_validators', { target: labels.target, subnet: 'primary' });
    const floor = floorOf(validators, ctx.params);
    return validators
      ? `${labels.target} is connected to ${value} peers, fewer than ${Math.round(ctx.params.min_ratio * 100)}% of the ${validators} primary-network validators (${Math.ceil(floor)}).`
      : `${labels.target} is connected to ${value} peers, below the threshold of ${ctx.params.threshold}.`;
  },
});

function floorOf(validators: number | undefined, params: Readonly<Record<string, number>>): number {
  return validators ? validators * params.min_ratio : params.threshold;
}
