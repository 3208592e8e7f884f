import { human } from '../prometheus-twin.js';
import type { AlertRule, TwinAlert } from '../rule.js';
import { validationEndings } from '../validation-endings.js';
import { formatSeconds, seriesRule } from './series-rule.js';

/**
 * Only validations that really end: fixed-period ones, and auto-renewed ones whose next period is 0.
 * No critical tier: an hour before the end nothing can be done that a day before could not.
 */
/** The twin's alert of one tier: the validation ends within the tier's param. */
function endsWithin(tier: 'info' | 'warning'): Omit<TwinAlert, 'severity'> {
  return {
    expr: ({ sel, p }) =>
      `(avaxmon_validator_end_timestamp_seconds{${sel}} - time()) < ${p[tier]} > 0 unless on (job, instance, target, subnet, node_id) avaxmon_validator_auto_renew{${sel}} == 1`,
    summary: ({ p }) => `Stake of validator {{ $labels.node_id }} ends within ${human(p[tier])}`,
    description: () =>
      `The validation of {{ $labels.node_id }} on subnet {{ $labels.subnet }} (target {{ $labels.target }}) ends in {{ $value | humanizeDuration }} and will not renew.`,
  };
}

const expiring = seriesRule({
  name: 'AvalancheStakeExpiring',
  metric: 'avaxmon_validator_end_timestamp_seconds',
  alsoReads: ['avaxmon_validator_auto_renew'],
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '0m',
  severity: ['info', 'warning'],
  params: {
    info: { kind: 'duration', default: 7 * 86_400, help: 'info when the stake ends within this' },
    warning: { kind: 'duration', default: 86_400, help: 'warning when the stake ends within this' },
  },
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      { severity: 'info', ...endsWithin('info') },
      { severity: 'warning', ...endsWithin('warning') },
    ],
  },
  description:
    'A validation that will not renew ends within 7 days (info) or 1 day (warning); auto-renewed validators (ACP-236) with a next cycle are skipped.',
  check: (end, ctx, sample) => {
    const left = end - ctx.nowMs / 1000;
    if (left <= 0) return undefined;
    const { target, subnet, node_id } = sample.labels;
    if (ctx.samples.valueOf('avaxmon_validator_auto_renew', { target, subnet, node_id }) === 1) return undefined;
    if (left < ctx.params.warning) return 'warning';
    return left < ctx.params.info ? 'info' : undefined;
  },
  summary: (labels, end, ctx) => `Stake of ${labels.node_id} ends in ${formatSeconds(end - ctx.nowMs / 1000)}`,
  detail: (labels, end) =>
    `The validation of ${labels.node_id} on subnet ${labels.subnet} ends at ${new Date(end * 1000).toISOString()} and will not renew; re-stake (or set a next period on an auto-renewed validator) to keep validating.`,
});

/**
 * The tiers before the end, then one notice once it ended (validation-endings.ts): the same alert
 * turning `info` with the end time and whether the reward was earned, kept for `ended_notice`, so
 * the receivers are told it ended instead of getting a bare resolve.
 */
export const avalancheStakeExpiring: AlertRule = {
  ...expiring,
  params: {
    ...expiring.params,
    ended_notice: {
      kind: 'duration',
      default: 3_600,
      help: 'how long a validation that ended stays notified as ended (info) before it resolves',
    },
  },
  alsoReads: [
    ...(expiring.alsoReads ?? []),
    'avaxmon_validator_uptime_ratio',
    'avaxmon_validator_uptime_requirement_ratio',
    'avaxmon_validator_potential_reward_avax',
  ],
  description: `${expiring.description} Once it has ended, the alert turns info for \`ended_notice\` (1h) with its end time and whether the reward was earned, then resolves.`,
  evaluate(ctx) {
    const live = expiring.evaluate(ctx);
    const ended = validationEndings(ctx, ctx.params.ended_notice);
    const liveKeys = new Set(live.map((candidate) => JSON.stringify(candidate.labels)));
    return [...live, ...ended.filter((candidate) => !liveKeys.has(JSON.stringify(candidate.labels)))];
  },
};
