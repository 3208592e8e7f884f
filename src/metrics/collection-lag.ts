import { LabelledCounter } from './labelled-counter.js';
import type { Sample } from './metric-desc.js';
import type { CollectorStatus } from './self-metrics.js';

/** A run that starts this much after its tick waited for the event loop or a concurrency slot. */
export const LATE_RUN_MS = 1_000;
/** Data older than this many of its collector's intervals, while the collector succeeds, means collection is behind. */
export const LAGGING_INTERVALS = 2;

/**
 * Whether collection keeps up, as series: a daemon short of CPU (a 1-core limit) or held by its
 * concurrency caps starts runs late and skips ticks, so its data ages while every run succeeds and
 * every target looks up. Counted here, so the daemon says it is behind instead of serving old data
 * as if new (AvaxmonCollectionLagging, the status page).
 */
export class CollectionLag {
  private readonly lateRuns = new LabelledCounter('avaxmon_collection_late_runs_total', ['collector']);
  private laggingNow = 0;
  private concurrencyCap?: number;
  private lastStartDelayMs = 0;

  /** A run started `delayMs` after its scheduled time. */
  recordStart(collector: string, delayMs: number): void {
    this.lastStartDelayMs = delayMs;
    // Counted from 0 once the collector runs at all, as a counter with known labels should be.
    this.lateRuns.add({ collector }, delayMs > LATE_RUN_MS ? 1 : 0);
  }

  /**
   * Counts the succeeding collectors whose last success is older than LAGGING_INTERVALS of their
   * interval, and takes the scheduler's cap in force (none before collection is scheduled).
   */
  update(statuses: Iterable<CollectorStatus>, nowSeconds: number, concurrencyCap?: number): void {
    this.concurrencyCap = concurrencyCap;
    let lagging = 0;
    for (const status of statuses) {
      if (!status.success || status.lastSuccessSeconds === undefined || status.intervalSeconds === undefined) continue;
      if (nowSeconds - status.lastSuccessSeconds > LAGGING_INTERVALS * status.intervalSeconds) lagging += 1;
    }
    this.laggingNow = lagging;
  }

  /** Whether the latest run started late: runs are waiting for the event loop or a slot, and extra runs would wait too. */
  get behind(): boolean {
    return this.lastStartDelayMs > LATE_RUN_MS;
  }

  get lagging(): number {
    return this.laggingNow;
  }

  samples(): Sample[] {
    const lagging: Sample = { name: 'avaxmon_collectors_lagging', labels: {}, value: this.laggingNow };
    const cap: Sample[] =
      this.concurrencyCap === undefined ? [] : [{ name: 'avaxmon_collection_concurrency_limit', labels: {}, value: this.concurrencyCap }];
    return [lagging, ...cap, ...this.lateRuns.samples()];
  }
}
