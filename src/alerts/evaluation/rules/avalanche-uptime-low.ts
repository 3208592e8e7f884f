import { human } from '../prometheus-twin.js';
import { BASE_UPTIME_REQUIREMENT } from '../../../collectors/validators/uptime-requirement.js';
import type { AlertRule, Candidate } from '../rule.js';
import { pick } from '../sample-index.js';
import { formatPercent } from './series-rule.js';

const LABELS = ['target', 'subnet', 'node_id', 'view'] as const;

/**
 * Each validator's uptime against its own requirement (ACP-267: 0.9 or 0.8). The node's view of
 * itself (view="self", always about 100%) is skipped: for this node the network's (deciding) view
 * counts. A running ratio under the requirement recovers while the node stays up, and the vote is
 * taken at the end of the period: a warning. AvalancheRewardAtRisk pages when the budget runs out.
 */
export const avalancheUptimeLow: AlertRule = {
  name: 'AvalancheUptimeLow',
  defaultFor: '5m',
  severity: 'warning',
  sources: [{ metric: 'avaxmon_validator_uptime_ratio', labels: LABELS }],
  alsoReads: ['avaxmon_validator_uptime_requirement_ratio'],
  params: {},
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel }) =>
          `avaxmon_validator_uptime_ratio{${sel}, view!="self"} < on (job, instance, target, subnet, node_id) group_left avaxmon_validator_uptime_requirement_ratio{${sel}}`,
        summary: () => `Uptime of validator {{ $labels.node_id }} is below its reward requirement`,
        description: ({ forSeconds }) =>
          `The uptime so far of validator {{ $labels.node_id }} on subnet {{ $labels.subnet }} ({{ if eq $labels.view "network" }}as the deciding share of the stake sees it{{ else }}as {{ $labels.target }} sees it{{ end }}) is {{ $value | humanizePercentage }}, below the requirement of its validation (avaxmon_validator_uptime_requirement_ratio), for more than ${human(forSeconds)}. It recovers while the node stays up; the downtime budget (AvalancheRewardAtRisk) says how much longer it may be down.`,
      },
    ],
  },
  description:
    'A validator\'s uptime so far is below the requirement of its validation: avaxmon_validator_uptime_ratio{view!="self"} < avaxmon_validator_uptime_requirement_ratio (0.9 from Helicon, else 0.8). A warning: the ratio recovers while the node stays up; AvalancheRewardAtRisk pages when the downtime budget is nearly spent.',
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    for (const sample of ctx.samples.all('avaxmon_validator_uptime_ratio')) {
      if (sample.labels.view === 'self') continue;
      const labels = pick(sample.labels, LABELS);
      const requirement =
        ctx.samples.valueOf('avaxmon_validator_uptime_requirement_ratio', {
          target: labels.target,
          subnet: labels.subnet,
          node_id: labels.node_id,
        }) ?? BASE_UPTIME_REQUIREMENT;
      if (sample.value >= requirement) continue;
      const who =
        labels.view === 'network'
          ? `validator ${labels.node_id} as the deciding share of the stake sees it`
          : `validator ${labels.node_id} as ${labels.target} sees it`;
      candidates.push({
        labels,
        severity: 'warning',
        summary: `Uptime of ${labels.node_id} is ${formatPercent(sample.value)}, below its ${formatPercent(requirement)} requirement`,
        description: `The uptime of ${who} on subnet ${labels.subnet} is ${formatPercent(sample.value)}, below the ${formatPercent(requirement)} its validation needs for the reward at the end of its period; see its downtime budget for how much longer it may be down.`,
      });
    }
    return candidates;
  },
};
