import { formatSeconds, seriesRule } from './series-rule.js';

export const avalancheStakeExpiring = seriesRule({
  name: 'AvalancheStakeExpiring',
  metric: 'avaxmon_validator_end_timestamp_seconds',
  labels: ['target', 'subnet', 'node_id'],
  defaultFor: '0m',
  severity: ['info', 'warning', 'critical'],
  params: {
    info: { kind: 'duration', default: 7 * 86_400, help: 'info when the stake ends within this' },
    warning: { kind: 'duration', default: 86_400, help: 'warning when the stake ends within this' },
    critical: { kind: 'duration', default: 3_600, help: 'critical when the stake ends within this' },
  },
  description: "A validator's stake ends within 7 days (info), 1 day (warning) or 1 hour (critical).",
  check: (end, ctx) => {
    const left = end - ctx.nowMs / 1000;
    if (left <= 0) return undefined;
    if (left < ctx.params.critical) return 'critical';
    if (left < ctx.params.warning) return 'warning';
    return left < ctx.params.info ? 'info' : undefined;
  },
  summary: (labels, end, ctx) => `Stake of ${labels.node_id} ends in ${formatSeconds(end - ctx.nowMs / 1000)}`,
  detail: (labels, end) =>
    `The validation period of ${labels.node_id} on subnet ${labels.subnet} ends at ${new Date(end * 1000).toISOString()}; re-stake to keep validating.`,
});
