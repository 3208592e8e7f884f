import type { AlertRule, Candidate } from '../rule.js';
import { pick } from '../sample-index.js';
import { formatPercent, formatSeconds } from './series-rule.js';

type History = Array<{ atMs: number; value: number }>;

/** Compares the current uptime with the highest value seen within `window`, per series. */
export const avalancheUptimeDropping: AlertRule = {
  name: 'AvalancheUptimeDropping',
  defaultFor: '0m',
  severity: 'warning',
  sources: [{ metric: 'avaxmon_node_uptime_weighted_average_ratio', labels: ['target', 'subnet'] }],
  // The peak lives in this rule's memory, which a restart empties: it takes a window to learn it again.
  historyMs: (params) => params.window * 1000,
  params: {
    threshold: { kind: 'number', default: 0.05, help: 'fires when uptime fell by more than this ratio (0.05 = 5 points)' },
    window: { kind: 'duration', default: 3600, help: 'the window over which the fall is measured' },
  },
  description: 'avaxmon_node_uptime_weighted_average_ratio fell by more than `threshold` (5 points) within `window` (1h).',
  evaluate(ctx) {
    const windowMs = ctx.params.window * 1000;
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    for (const sample of ctx.samples.all('avaxmon_node_uptime_weighted_average_ratio')) {
      const labels = pick(sample.labels, ['target', 'subnet']);
      const key = JSON.stringify(labels);
      seen.add(key);
      const history = ((ctx.memory.get(key) as History | undefined) ?? []).filter((point) => point.atMs >= ctx.nowMs - windowMs);
      history.push({ atMs: ctx.nowMs, value: sample.value });
      ctx.memory.set(key, history);
      const peak = Math.max(...history.map((point) => point.value));
      if (peak - sample.value <= ctx.params.threshold) continue;
      candidates.push({
        labels,
        severity: 'warning',
        summary: `Uptime of ${labels.target} fell by ${formatPercent(peak - sample.value)} points`,
        description: `The stake-weighted uptime of ${labels.target} fell from ${formatPercent(peak)} to ${formatPercent(sample.value)} within ${formatSeconds(ctx.params.window)}.`,
      });
    }
    for (const key of ctx.memory.keys()) if (!seen.has(key)) ctx.memory.delete(key);
    return candidates;
  },
};
