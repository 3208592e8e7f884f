import type { Logger } from 'pino';
import type { NodeClient } from '../clients/avalanchego.js';
import type { TargetConfig } from '../config/schema.js';
import type { MetricsSnapshot } from '../metrics/snapshot.js';
import type { SelfMetrics } from '../metrics/self-metrics.js';
import type { Collector, TargetFacts } from './collector.js';

export interface CollectorRunDeps {
  readonly snapshot: MetricsSnapshot;
  readonly self: SelfMetrics;
  readonly log: Logger;
}

export interface CollectorRuntime {
  readonly collector: Collector;
  readonly target: TargetConfig;
  readonly node: NodeClient;
  readonly facts: TargetFacts;
  readonly memory: Map<string, unknown>;
  readonly deadlineMs: number;
}

export interface RunResult {
  readonly success: boolean;
  readonly error?: unknown;
}

export function sliceKey(target: string, collector: string): string {
  return `${target}/${collector}`;
}

/**
 * Runs one collector once: deadline, timing, a child logger, and the all-or-nothing rule. A failed
 * run removes the collector's series, so /metrics never shows stale values.
 */
export async function runCollector(runtime: CollectorRuntime, deps: CollectorRunDeps, stopSignal: AbortSignal): Promise<RunResult> {
  const { collector, target } = runtime;
  const log = deps.log.child({ target: target.name, collector: collector.name });
  const started = performance.now();
  const nowMs = Date.now();
  const signal = AbortSignal.any([stopSignal, AbortSignal.timeout(runtime.deadlineMs)]);
  let result: RunResult;
  try {
    const observation = await collector.collect({
      target,
      node: runtime.node,
      log,
      signal,
      nowMs,
      memory: runtime.memory,
      facts: runtime.facts,
    });
    deps.snapshot.setSlice(sliceKey(target.name, collector.name), observation.samples);
    result = { success: true };
  } catch (error) {
    deps.snapshot.setSlice(sliceKey(target.name, collector.name), []);
    log.warn({ err: error }, 'Collection failed');
    result = { success: false, error };
  }
  const durationSeconds = (performance.now() - started) / 1000;
  deps.self.recordRun(target.name, collector.name, result.success, durationSeconds, Date.now() / 1000);
  log.debug({ durationSeconds, success: result.success }, 'Collection finished');
  return result;
}
