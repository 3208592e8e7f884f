import type { AlertRule, Candidate, RuleContext } from '../rule.js';
import { formatSeconds } from './series-rule.js';

const NAME = 'AvaxmonCollectorFailing';

/**
 * A collector that keeps failing leaves avaxmon blind to what it collects: a wrong URL (404), a bad
 * token (401) or a disabled API. Its own alerts are then kept as they were (marked stale), so this
 * rule is what tells the operator that they no longer mean anything. Its `for` matches the 1m of
 * AvaxmonTargetDown and AvalancheNodeUnhealthy, which explain (inhibit) most failing collectors: a
 * 15 s collector fails its 3 intervals in 45 s, and without it would page before them.
 */
export const avaxmonCollectorFailing: AlertRule = {
  name: NAME,
  defaultFor: '1m',
  severity: 'warning',
  params: {
    intervals: { kind: 'number', default: 3, help: 'fires once the collector has not succeeded for this many of its intervals' },
    interval: { kind: 'duration', default: 60, help: 'the interval assumed when the daemon does not know the collector’s own' },
  },
  sources: [{ metric: 'avaxmon_collector_success', labels: ['target', 'collector'] }],
  alsoReads: ['avaxmon_collector_last_success_timestamp_seconds', 'avaxmon_collector_interval_seconds'],
  prometheus: {
    group: 'avaxmon-self',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel, p }) => `
          (avaxmon_collector_success{${sel}} == 0)
            and on (job, instance, target, collector)
          (
            time() - avaxmon_collector_last_success_timestamp_seconds{${sel}}
              >= on (job, instance, target, collector) ${p.intervals} * avaxmon_collector_interval_seconds{${sel}}
            or on (job, instance, target, collector)
            (
              ${p.intervals} * avaxmon_collector_interval_seconds{${sel}}
                <= on (job, instance) group_left () (time() - process_start_time_seconds{${sel}})
              unless on (job, instance, target, collector) avaxmon_collector_last_success_timestamp_seconds{${sel}}
            )
          )
        `,
        summary: () => `Collector {{ $labels.collector }} on {{ $labels.target }} keeps failing`,
        description: () =>
          `The {{ $labels.collector }} collector of {{ $labels.target }} on {{ $labels.instance }} has not succeeded for 3 of its intervals (avaxmon_collector_interval_seconds); its series are gone and the alerts that read them are stale. The error is in avaxmon's log and on its status page.`,
      },
    ],
  },
  description:
    'A collector of a target has not succeeded for `intervals` (3) of its intervals (avaxmon_collector_success == 0 and avaxmon_collector_last_success_timestamp_seconds that many avaxmon_collector_interval_seconds old); the annotation carries its last error.',
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    const failing = new Set<string>();
    for (const sample of ctx.samples.all('avaxmon_collector_success')) {
      if (sample.value !== 0) continue;
      const { target, collector } = sample.labels;
      const key = `${target}/${collector}`;
      failing.add(key);
      const failingForSeconds = failingFor(ctx, target, collector, key);
      const info = ctx.collectors?.(target, collector);
      const intervalSeconds = intervalOf(ctx, target, collector, info?.intervalMs);
      if (failingForSeconds < ctx.params.intervals * intervalSeconds) continue;
      const error = info?.lastError ?? 'unknown (see the daemon log)';
      candidates.push({
        labels: { target, collector },
        severity: 'warning',
        summary: `Collector ${collector} on ${target} keeps failing`,
        description: `The ${collector} collector of ${target} has not succeeded for ${formatSeconds(failingForSeconds)} (${ctx.params.intervals} or more runs of every ${formatSeconds(intervalSeconds)}); its alerts are stale until it recovers. Last error: ${error}`,
        annotations: { error },
      });
    }
    for (const key of [...ctx.memory.keys()]) if (!failing.has(key)) ctx.memory.delete(key);
    return candidates;
  },
};

/** The collector's own schedule, as exported (the Prometheus twin reads the same series). */
function intervalOf(ctx: RuleContext, target: string, collector: string, knownMs: number | undefined): number {
  const exported = ctx.samples.valueOf('avaxmon_collector_interval_seconds', { target, collector });
  return exported ?? (knownMs !== undefined ? knownMs / 1000 : ctx.params.interval);
}

/** Seconds since the last success; a collector that never succeeded counts from its first failure seen. */
function failingFor(ctx: RuleContext, target: string, collector: string, key: string): number {
  const lastSuccess = ctx.samples.valueOf('avaxmon_collector_last_success_timestamp_seconds', { target, collector });
  if (!ctx.memory.has(key)) ctx.memory.set(key, ctx.nowMs);
  const sinceMs = lastSuccess !== undefined ? lastSuccess * 1000 : (ctx.memory.get(key) as number);
  return Math.max(0, (ctx.nowMs - sinceMs) / 1000);
}
