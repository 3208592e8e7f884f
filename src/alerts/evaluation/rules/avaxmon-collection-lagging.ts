import type { AlertRule, Candidate } from '../rule.js';

/**
 * The daemon cannot keep up (a 1-core limit, too many targets for its concurrency caps): runs start
 * late or are skipped, so data ages while every run succeeds and every target looks up. Without
 * this alert an overloaded avaxmon would serve minute-old numbers as if they were fresh.
 */
export const avaxmonCollectionLagging: AlertRule = {
  name: 'AvaxmonCollectionLagging',
  defaultFor: '2m',
  severity: 'warning',
  params: {},
  sources: [{ metric: 'avaxmon_collectors_lagging', labels: [] }],
  // The count belongs to no target: taken on the fleet tick.
  fleetReads: ['avaxmon_collectors_lagging'],
  prometheus: {
    group: 'avaxmon-self',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel }) => `avaxmon_collectors_lagging{${sel}} > 0`,
        summary: () => `avaxmon at {{ $labels.instance }} is behind schedule`,
        description: () =>
          `{{ $value }} collectors of avaxmon at {{ $labels.instance }} have not succeeded for two of their intervals although their runs succeed: it starts runs late or skips them, and its data is older than it should be. Give it more CPU, raise global.max_concurrent_collections, lengthen intervals, or shard the fleet.`,
      },
    ],
  },
  description:
    'Collectors whose last success is older than two of their intervals although their runs succeed (avaxmon_collectors_lagging > 0): avaxmon is behind schedule, short of CPU or held by its concurrency caps.',
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    for (const sample of ctx.samples.all('avaxmon_collectors_lagging')) {
      if (sample.value <= 0) continue;
      candidates.push({
        labels: {},
        severity: 'warning',
        summary: `avaxmon is behind schedule: ${sample.value} collectors late`,
        description: `${sample.value} collectors have not succeeded for two of their intervals although their runs succeed: the daemon starts runs late or skips them (avaxmon_collection_late_runs_total, avaxmon_collector_skipped_runs_total). Its data is older than it should be. Give it more CPU, raise global.max_concurrent_collections, lengthen intervals, or shard the fleet (docs/scaling.md).`,
      });
    }
    return candidates;
  },
};
