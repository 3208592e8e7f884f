import { days } from '../prometheus-twin.js';
import type { TwinAlert } from '../rule.js';
import { formatSeconds, seriesRule } from './series-rule.js';

/** The twin's alert of one tier: the balance lasts less than the tier's param. */
function runwayBelow(tier: 'warning' | 'critical'): Omit<TwinAlert, 'severity'> {
  return {
    expr: ({ sel, p }) => `avaxmon_l1_validator_balance_runway_seconds{${sel}} < ${p[tier]}`,
    summary: ({ p }) => `L1 validator {{ $labels.node_id }} has less than ${days(p[tier])} days of balance`,
    description: () =>
      `At the current fee, the balance of L1 validator {{ $labels.node_id }} on {{ $labels.subnet }} (target {{ $labels.target }}) lasts {{ $value | humanizeDuration }}; it is deactivated when the balance reaches zero.`,
  };
}

export const avalancheL1ValidatorBalanceLow = seriesRule({
  name: 'AvalancheL1ValidatorBalanceLow',
  metric: 'avaxmon_l1_validator_balance_runway_seconds',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '15m',
  severity: ['warning', 'critical'],
  params: {
    warning: { kind: 'duration', default: 30 * 86_400, help: 'warning when the balance lasts less than this' },
    critical: { kind: 'duration', default: 7 * 86_400, help: 'critical when the balance lasts less than this' },
  },
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      { severity: 'warning', ...runwayBelow('warning') },
      { severity: 'critical', ...runwayBelow('critical') },
    ],
  },
  description: "An L1 validator's balance pays the continuous fee for less than 30 days (warning) or 7 days (critical).",
  check: (runway, ctx) => (runway < ctx.params.critical ? 'critical' : runway < ctx.params.warning ? 'warning' : undefined),
  summary: (labels, runway) => `L1 validator ${labels.node_id} balance runs out in ${formatSeconds(runway)}`,
  detail: (labels, runway) =>
    `At the current fee, the balance of L1 validator ${labels.node_id} on ${labels.subnet} lasts ${formatSeconds(runway)}; the validator is deactivated at zero. Top it up with IncreaseL1ValidatorBalanceTx.`,
});
