import type { Logger } from 'pino';
import type { NodeClient } from '../clients/avalanchego.js';
import { systemClock, type Clock, type SteadyClock } from '../schedule/clock.js';
import type { TargetConfig } from '../config/schema.js';
import type { MetricsSnapshot } from '../metrics/snapshot.js';
import type { SelfMetrics } from '../metrics/self-metrics.js';
import type { Collector, Observation, TargetFacts } from './collector.js';
import { deadline } from '../schedule/deadline.js';
import { sliceLog, type SliceLog } from './slice-log.js';
import type { LastGoodFacts } from './last-good-facts.js';

export interface CollectorRunDeps {
  readonly snapshot: MetricsSnapshot;
  readonly self: SelfMetrics;
  readonly log: Logger;
  /** What a run's `nowMs` and its success timestamp read; the system clock by default. */
  readonly clock?: Clock;
  /** The page-deciding facts a failed run falls back on; none kept without it. */
  readonly facts?: LastGoodFacts;
  /** What the age of those facts is measured on: it must not step with the wall clock. */
  readonly steady?: SteadyClock;
}

export interface CollectorRuntime {
  readonly collector: Collector;
  readonly target: TargetConfig;
  readonly node: NodeClient;
  readonly facts: TargetFacts;
  readonly memory: Map<string, unknown>;
  /** How often the collector runs; a run must end within it. A probe runs once, so its timeout. */
  readonly intervalMs: number;
}

export interface RunResult {
  readonly success: boolean;
  readonly error?: unknown;
  /** The run ended after it was abandoned or replaced; nothing was recorded. */
  readonly dropped?: boolean;
}

export function sliceKey(target: string, collector: string): string {
  return `${target}/${collector}`;
}

/** What a slice's collect call gets: its logger, the run's deadline signal and start time. */
export interface SliceRunContext {
  readonly log: SliceLog;
  readonly signal: AbortSignal;
  readonly nowMs: number;
}

/**
 * One scheduled unit of collection, whatever it collects: a node collector on a target, or a
 * public-API collector (whose `target` is the API's name, e.g. `metrics_api`).
 */
export interface SliceRun {
  readonly target: string;
  readonly collector: string;
  /** How often the slice runs; also its deadline, so runs of one slice never overlap. */
  readonly intervalMs: number;
  /** The upstream origin it requests, for the scheduler's per-origin cap. */
  readonly origin?: string;
  collect(ctx: SliceRunContext): Promise<Observation>;
}

/** Adapts a node collector on one target to a SliceRun. */
export function nodeSliceRun(runtime: CollectorRuntime): SliceRun {
  return new NodeSliceRun(runtime);
}

/** A class, not an object literal with a closure: a fleet holds one per collector and target. */
class NodeSliceRun implements SliceRun {
  constructor(private readonly runtime: CollectorRuntime) {}

  get target(): string {
    return this.runtime.target.name;
  }

  get collector(): string {
    return this.runtime.collector.name;
  }

  get intervalMs(): number {
    return this.runtime.intervalMs;
  }

  get origin(): string {
    return this.runtime.node.origin;
  }

  collect({ log, signal, nowMs }: SliceRunContext): Promise<Observation> {
    const { collector, target, node, memory, facts } = this.runtime;
    return collector.collect({ target, node, log, signal, nowMs, memory, facts });
  }
}

/** The slices whose current failure was logged at warn: only those log their recovery. */
const announcedFailures = new WeakSet<SliceRun>();

/**
 * Runs one slice once: deadline, timing, its logger, and the all-or-nothing rule. A failed
 * run removes the slice's series, so /metrics never shows stale values, but for the page-deciding
 * facts of its last good run (LastGoodFacts), shown with their age. When `isCurrent` says the
 * run was abandoned meanwhile, its late result is dropped: the scheduler has moved on.
 */
export async function runSlice(
  run: SliceRun,
  deps: CollectorRunDeps,
  stopSignal: AbortSignal,
  isCurrent: () => boolean = () => true,
): Promise<RunResult> {
  const log = sliceLog(deps.log, run, () => deps.self.isTargetUp(run.target) === false);
  const started = performance.now();
  const clock = deps.clock ?? systemClock;
  const nowMs = clock.now();
  const { signal, release } = deadline(run.intervalMs, stopSignal);
  let result: RunResult;
  try {
    const observation = await run.collect({ log, signal, nowMs });
    if (!isCurrent()) return { success: false, dropped: true };
    deps.snapshot.setSlice(sliceKey(run.target, run.collector), observation.samples);
    deps.facts?.remember(sliceKey(run.target, run.collector), observation.samples, (deps.steady ?? clock).now());
    result = { success: true };
    if (announcedFailures.delete(run)) log.info('Collection recovered');
  } catch (error) {
    if (!isCurrent()) return { success: false, error, dropped: true };
    // Its series go, but for the facts that decide pages: a slow or intermittent node must not
    // blind the validator's pages (they say the facts are stale, and how old).
    const key = sliceKey(run.target, run.collector);
    const labels = { target: run.target, collector: run.collector };
    deps.snapshot.setSlice(key, deps.facts?.stale(key, labels, (deps.steady ?? clock).now()) ?? []);
    // A failing collector warns when its failure starts, not on each run; an unreachable target's
    // collectors leave it to the target's own line.
    const announce = !announcedFailures.has(run) && !log.quiet;
    if (announce) announcedFailures.add(run);
    log[announce ? 'warn' : 'debug']({ err: error }, 'Collection failed');
    result = { success: false, error };
  } finally {
    release();
  }
  const durationSeconds = (performance.now() - started) / 1000;
  deps.self.recordRun(run.target, run.collector, {
    success: result.success,
    durationSeconds,
    nowSeconds: clock.now() / 1000,
    intervalSeconds: run.intervalMs / 1000,
  });
  log.debug({ durationSeconds, success: result.success }, 'Collection finished');
  return result;
}
