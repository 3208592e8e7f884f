import { formatSeconds, seriesRule } from './series-rule.js';

/** Compares with the time of the last progress, so the alert resolves on the first new block. */
export const avalancheChainStalled = seriesRule({
  name: 'AvalancheChainStalled',
  metric: 'avaxmon_chain_last_progress_timestamp_seconds',
  labels: ['target', 'chain'],
  defaultFor: '1m',
  severity: 'critical',
  params: { threshold: { kind: 'duration', default: 300, help: 'fires when the height has not moved for this long' } },
  description: 'The chain height has not moved for `threshold` (now - avaxmon_chain_last_progress_timestamp_seconds > 300).',
  // The collector's last-progress time restarts at "now" with the daemon, so a stalled chain looks fresh for `threshold`.
  historyMs: (params) => params.threshold * 1000,
  check: (lastProgress, ctx) => (ctx.nowMs / 1000 - lastProgress > ctx.params.threshold ? 'critical' : undefined),
  summary: (labels) => `Chain ${labels.chain} is stalled on ${labels.target}`,
  detail: (labels, lastProgress, ctx) =>
    `The height of chain ${labels.chain} on ${labels.target} has not moved for ${formatSeconds(ctx.nowMs / 1000 - lastProgress)}.`,
});
