import { human } from '../prometheus-twin.js';
import type { Labels } from '../../../metrics/metric-desc.js';
import type { RuleContext } from '../rule.js';
import { formatPercent, formatSeconds, seriesRule } from './series-rule.js';

export const avalancheHealthCheckFailing = seriesRule({
  name: 'AvalancheHealthCheckFailing',
  metric: 'avaxmon_health_check_passing',
  alsoReads: [
    'avaxmon_health_check_contiguous_failures',
    'avaxmon_health_disk_available_ratio',
    'avaxmon_health_disk_available_bytes',
    'avaxmon_health_network_send_fail_ratio',
    'avaxmon_health_network_ingress_connections',
    'avaxmon_health_router_outstanding_requests',
    'avaxmon_health_chain_connected_stake_ratio',
    'avaxmon_health_chain_longest_processing_block_seconds',
  ],
  labels: ['target', 'check'],
  defaultFor: '2m',
  severity: 'warning',
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel }) => `avaxmon_health_check_passing{${sel}} == 0`,
        summary: () => `Health check {{ $labels.check }} fails on {{ $labels.target }}`,
        description: ({ forSeconds }) =>
          `Health check {{ $labels.check }} on {{ $labels.target }} has failed for more than ${human(forSeconds)} ({{ with printf "avaxmon_health_check_contiguous_failures{job=%q,instance=%q,target=%q,check=%q}" $labels.job $labels.instance $labels.target $labels.check | query }}{{ . | first | value }}{{ else }}unknown{{ end }} contiguous failures).`,
      },
    ],
  },
  description:
    'One health check of the node fails (avaxmon_health_check_passing == 0), with its contiguous failures and what the check measured.',
  check: (value) => (value === 0 ? 'warning' : undefined),
  summary: (labels) => `Health check ${labels.check} fails on ${labels.target}`,
  detail: (labels, _, ctx) => {
    const failures = ctx.samples.valueOf('avaxmon_health_check_contiguous_failures', { target: labels.target, check: labels.check });
    const measured = measuredBy(labels, ctx);
    return `Health check "${labels.check}" on ${labels.target} is failing${failures === undefined ? '' : ` (${failures} contiguous failures)`}.${measured ? ` ${measured}.` : ''}`;
  },
});

/** The numbers of the check's message (exported by the health collector) that say why it fails. */
function measuredBy(labels: Labels, ctx: RuleContext): string | undefined {
  const value = (name: string, extra: Labels = {}) => ctx.samples.valueOf(name, { target: labels.target, ...extra });
  switch (labels.check) {
    case 'diskspace': {
      const ratio = value('avaxmon_health_disk_available_ratio');
      const bytes = value('avaxmon_health_disk_available_bytes');
      return ratio === undefined
        ? undefined
        : `Disk available: ${formatPercent(ratio)}${bytes === undefined ? '' : ` (${(bytes / 1e9).toFixed(1)} GB)`}`;
    }
    case 'network': {
      const sendFail = value('avaxmon_health_network_send_fail_ratio');
      const ingress = value('avaxmon_health_network_ingress_connections');
      const parts = [
        sendFail === undefined ? '' : `send-fail rate ${formatPercent(sendFail)}`,
        ingress === undefined ? '' : `${ingress} inbound connections`,
      ].filter(Boolean);
      return parts.length === 0 ? undefined : `Network: ${parts.join(', ')}`;
    }
    case 'router': {
      const outstanding = value('avaxmon_health_router_outstanding_requests');
      return outstanding === undefined ? undefined : `Outstanding requests: ${outstanding}`;
    }
    default: {
      // Chain checks are named P, X, C (the health collector's chain label) or by blockchain id.
      const stake = value('avaxmon_health_chain_connected_stake_ratio', { chain: labels.check });
      const processing = value('avaxmon_health_chain_longest_processing_block_seconds', { chain: labels.check });
      const parts = [
        stake === undefined ? '' : `connected to ${formatPercent(stake)} of the chain's stake`,
        processing === undefined ? '' : `oldest undecided block ${formatSeconds(processing)} old`,
      ].filter(Boolean);
      return parts.length === 0 ? undefined : `Chain ${labels.check}: ${parts.join(', ')}`;
    }
  }
}
