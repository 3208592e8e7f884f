import type { Collector } from '../../src/collectors/collector.js';
import { collectorRegistry, type CollectorRegistry } from '../../src/collectors/index.js';

export interface CountingCollectors {
  /** The production collectors, each run counted; pass it to the Daemon as its collectorRegistry. */
  readonly registry: CollectorRegistry;
  /** Runs under way: 0 once every run a clock step started has ended. */
  running(): number;
  /** Runs of the collector started so far. */
  started(collector: string): number;
}

export function countingCollectors(): CountingCollectors {
  let running = 0;
  const started = new Map<string, number>();
  const counted = (name: string, collector: Collector): Collector => ({
    ...collector,
    collect: async (ctx) => {
      started.set(name, (started.get(name) ?? 0) + 1);
      running++;
      try {
        return await collector.collect(ctx);
      } finally {
        running--;
      }
    },
  });
  const registry = new Map(
    [...collectorRegistry].map(([name, factory]) => [name, { ...factory, create: () => counted(name, factory.create()) }]),
  );
  return { registry, running: () => running, started: (name) => started.get(name) ?? 0 };
}
