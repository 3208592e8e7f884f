import { formatDuration } from '../../../config/duration.js';
import { human } from '../prometheus-twin.js';
import type { AlertRule, Candidate } from '../rule.js';
import { pick } from '../sample-index.js';
import { formatPercent, formatSeconds } from './series-rule.js';

/**
 * The points of the window that may yet be its peak, oldest first, each higher than every later one
 * (one below a later point never can be). Rising or flat uptime keeps a point or two, not one per
 * evaluation for an hour, and the list is written over in place: an evaluation promotes no new array.
 */
type Peaks = Array<{ atMs: number; value: number }>;

const METRIC = 'avaxmon_validator_uptime_ratio';
const LABELS = ['target', 'subnet', 'node_id'] as const;

/**
 * Compares this node's network (deciding) uptime with the highest value seen within `window`. Not
 * info.uptime's weighted average, which also falls when peers merely disconnect.
 */
export const avalancheUptimeDropping: AlertRule = {
  name: 'AvalancheUptimeDropping',
  // A restart dips the view for a moment (a peer reports 0 until its first ping): a fall must last.
  defaultFor: '5m',
  severity: 'warning',
  sources: [{ metric: METRIC, labels: LABELS }],
  // The peak lives in this rule's memory, which a restart empties: it takes a window to learn it again.
  historyMs: (params) => params.window * 1000,
  params: {
    threshold: { kind: 'number', default: 0.05, help: 'fires when uptime fell by more than this ratio (0.05 = 5 points)' },
    window: { kind: 'duration', default: 3600, help: 'the window over which the fall is measured' },
  },
  prometheus: {
    group: 'avaxmon-validator',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel, p }) =>
          `max without (view) (max_over_time(avaxmon_validator_uptime_ratio{${sel}, view="network"}[${formatDuration(p.window * 1000)}]) - avaxmon_validator_uptime_ratio{${sel}, view="network"}) > ${p.threshold}`,
        summary: () => `Uptime of {{ $labels.target }} is dropping`,
        description: ({ forSeconds }) =>
          `The uptime of {{ $labels.node_id }} (target {{ $labels.target }}) as the deciding share of the stake sees it fell by {{ $value | humanizePercentage }} within the last hour (threshold 5 points), for more than ${human(forSeconds)}.`,
      },
    ],
  },
  description:
    'The uptime of this node as the deciding share of the stake sees it (avaxmon_validator_uptime_ratio{view="network"}) fell by more than `threshold` (5 points) within `window` (1h).',
  evaluate(ctx) {
    const windowMs = ctx.params.window * 1000;
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    for (const sample of ctx.samples.all(METRIC)) {
      if (sample.labels.view !== 'network') continue;
      const labels = pick(sample.labels, LABELS);
      const key = JSON.stringify(labels);
      seen.add(key);
      let peaks = ctx.memory.get(key) as Peaks | undefined;
      if (!peaks) ctx.memory.set(key, (peaks = []));
      const peak = peakWithin(peaks, ctx.nowMs - windowMs, ctx.nowMs, sample.value);
      if (peak - sample.value <= ctx.params.threshold) continue;
      candidates.push({
        labels,
        severity: 'warning',
        summary: `Uptime of ${labels.target} fell by ${formatPercent(peak - sample.value)} points`,
        description: `The uptime of ${labels.node_id} (target ${labels.target}) as the deciding share of the stake sees it fell from ${formatPercent(peak)} to ${formatPercent(sample.value)} within ${formatSeconds(ctx.params.window)}.`,
      });
    }
    for (const key of ctx.memory.keys()) if (!seen.has(key)) ctx.memory.delete(key);
    return candidates;
  },
};

/** Adds the value seen at `atMs` and returns the highest seen since `sinceMs`, the value included. */
function peakWithin(peaks: Peaks, sinceMs: number, atMs: number, value: number): number {
  while (peaks.length > 0 && peaks[peaks.length - 1].value <= value) peaks.pop();
  peaks.push({ atMs, value });
  let expired = 0;
  while (peaks[expired].atMs < sinceMs) expired++;
  if (expired > 0) peaks.splice(0, expired);
  return peaks[0].value;
}
