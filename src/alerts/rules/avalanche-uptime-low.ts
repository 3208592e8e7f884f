import type { AlertRule, Candidate } from '../rule.js';
import { formatPercent } from './series-rule.js';

const SOURCES = [
  { metric: 'avaxmon_node_uptime_weighted_average_ratio', labels: ['target', 'subnet'], what: 'stake-weighted uptime (info.uptime)' },
  { metric: 'avaxmon_validator_uptime_ratio', labels: ['target', 'subnet', 'node_id'], what: 'P-Chain uptime of the validator' },
] as const;

/** Both sources of uptime compare against the same reward requirement (80% today; ACP-267 proposes 90%). */
export const avalancheUptimeLow: AlertRule = {
  name: 'AvalancheUptimeLow',
  defaultFor: '5m',
  severity: 'critical',
  sources: SOURCES,
  params: { threshold: { kind: 'number', default: 0.8, help: 'the reward uptime requirement, as a ratio' } },
  description:
    'Uptime is below the reward requirement: avaxmon_node_uptime_weighted_average_ratio < 0.8 or avaxmon_validator_uptime_ratio < 0.8.',
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    for (const source of SOURCES) {
      for (const sample of ctx.samples.all(source.metric)) {
        if (sample.value >= ctx.params.threshold) continue;
        const labels = Object.fromEntries(source.labels.filter((key) => sample.labels[key] !== undefined).map((key) => [key, sample.labels[key]]));
        const who = labels.node_id ? `validator ${labels.node_id}` : `node ${labels.target}`;
        candidates.push({
          labels,
          severity: 'critical',
          summary: `Uptime of ${who} is ${formatPercent(sample.value)}, below the reward requirement`,
          description: `The ${source.what} of ${who} on subnet ${labels.subnet ?? 'primary'} is ${formatPercent(sample.value)}, below the ${formatPercent(ctx.params.threshold)} required for rewards.`,
        });
      }
    }
    return candidates;
  },
};
