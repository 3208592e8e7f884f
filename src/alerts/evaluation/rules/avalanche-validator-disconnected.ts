import { human } from '../prometheus-twin.js';
import type { AlertRule, Candidate } from '../rule.js';
import { pick } from '../sample-index.js';

const LABELS = ['target', 'subnet', 'node_id', 'view'] as const;

/**
 * The target node's connection to a watched validator. A node's entry for itself (view="self") is
 * always connected and says nothing: the network's view of this node is AvalancheUptimeLow and
 * AvalancheRewardAtRisk; a node cut off from its peers is AvalanchePeersLow.
 */
export const avalancheValidatorDisconnected: AlertRule = {
  name: 'AvalancheValidatorDisconnected',
  defaultFor: '5m',
  severity: 'critical',
  sources: [{ metric: 'avaxmon_validator_connected', labels: LABELS }],
  params: {},
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel }) => `avaxmon_validator_connected{${sel}, view!="self"} == 0`,
        summary: () => `Validator {{ $labels.node_id }} is disconnected`,
        description: ({ forSeconds }) =>
          `Target {{ $labels.target }} has reported validator {{ $labels.node_id }} on subnet {{ $labels.subnet }} as not connected for more than ${human(forSeconds)}.`,
      },
    ],
  },
  description: 'The target node is not connected to a watched validator (avaxmon_validator_connected{view!="self"} == 0).',
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    for (const sample of ctx.samples.all('avaxmon_validator_connected')) {
      if (sample.labels.view === 'self' || sample.value !== 0) continue;
      const labels = pick(sample.labels, LABELS);
      candidates.push({
        labels,
        severity: 'critical',
        summary: `Validator ${labels.node_id} is not connected`,
        description: `platform.getCurrentValidators on ${labels.target} reports ${labels.node_id} on subnet ${labels.subnet} as disconnected.`,
      });
    }
    return candidates;
  },
};
