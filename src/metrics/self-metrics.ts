import { SteadyClock, systemClock, type Clock } from '../schedule/clock.js';
import type { Outcome } from '../errors.js';
import { LabelledCounter } from './labelled-counter.js';
import type { Sample } from './metric-desc.js';
import { samplesOf, type LineSink } from './line-sink.js';
import type { ReachabilityListener } from '../daemon/target-reachability-log.js';

export interface CollectorStatus {
  readonly target: string;
  readonly collector: string;
  /** Undefined until the first run ends. */
  success?: boolean;
  durationSeconds: number;
  lastSuccessSeconds?: number;
  /** The schedule the last run kept: what "three intervals without success" is measured in. */
  intervalSeconds?: number;
  skippedRuns: number;
  abandonedRuns: number;
  /** `{ target, collector }`, made once: every run's samples share it (samples are never changed). */
  readonly labels: Readonly<Record<string, string>>;
}

interface Reachability {
  lastAnswerMs?: number;
  lastFailureMs?: number;
  /** Failures this soon after an answer are one slow method, not a dead node. */
  graceMs: number;
}

/**
 * avaxmon's own state as samples: collector status, request outcomes, target reachability, reloads.
 * Kept per target and collector, so a run re-renders its own collector's status and its target's
 * request counts, never the fleet's.
 */
export class SelfMetrics {
  private readonly requests = new Map<string, LabelledCounter<'target' | 'method' | 'outcome'>>();
  private readonly requestLabels: Record<'target' | 'method' | 'outcome', string> = { target: '', method: '', outcome: '' };
  /** Seconds each target's requests waited for a connection, in all. */
  private readonly queueWaitSeconds = new Map<string, number>();
  private readonly collectors = new Map<string, CollectorStatus>();
  private readonly collectorsOfTarget = new Map<string, Set<string>>();
  private readonly reachability = new Map<string, Reachability>();
  /** Targets that answered at least one request as an API does. */
  private readonly answeredAsApi = new Set<string>();
  /** Targets whose status samples may have moved since takeStatusMoved() last said so. */
  private readonly statusMovedTargets = new Set<string>();
  private reloadSuccessful = true;
  private lastLoadSeconds: number;
  private readonly clock: Clock;
  /** Reachability compares answer and failure times: a wall step between them must not decide it. */
  private readonly steady: SteadyClock;

  /**
   * `clock`: when the config was loaded and when a target last answered; the system clock by default.
   * `onReachabilityChange`: told when a target turns unreachable or answers again (not on its first answer).
   */
  constructor(private readonly build: { version: string; revision: string; clock?: Clock; onReachabilityChange?: ReachabilityListener }) {
    this.clock = build.clock ?? systemClock;
    this.steady = new SteadyClock(this.clock);
    this.lastLoadSeconds = this.clock.now() / 1000;
  }

  recordRequest(target: string, method: string, outcome: Outcome): void {
    let counter = this.requests.get(target);
    if (!counter) this.requests.set(target, (counter = new LabelledCounter('avaxmon_rpc_requests_total', ['target', 'method', 'outcome'])));
    // add() keeps the values, never the object: one object serves every request.
    const labels = this.requestLabels;
    labels.target = target;
    labels.method = method;
    labels.outcome = outcome;
    counter.add(labels);
    if (outcome === 'success' || outcome === 'rpc_error') this.answeredAsApi.add(target);
  }

  recordQueueWait(target: string, waitedSeconds: number): void {
    this.queueWaitSeconds.set(target, (this.queueWaitSeconds.get(target) ?? 0) + waitedSeconds);
  }

  /**
   * A node is up while its requests get HTTP answers, even 503s: those come from the node itself.
   * Collectors run concurrently, so one method timing out while others are answered must not mark
   * the node down: it is down once transport failures continue past `graceMs` after the last answer.
   */
  recordReachability(target: string, reachable: boolean, graceMs: number, error?: unknown, nowMs = this.steady.now()): void {
    const upBefore = this.isTargetUp(target);
    const state = this.reachability.get(target) ?? { graceMs };
    state.graceMs = graceMs;
    if (reachable) state.lastAnswerMs = nowMs;
    else state.lastFailureMs = nowMs;
    this.reachability.set(target, state);
    const upNow = this.isTargetUp(target);
    if (upNow === upBefore) return;
    this.statusMoved(target);
    if (upBefore !== undefined || !upNow) this.build.onReachabilityChange?.(target, upNow === true, error);
  }

  isTargetUp(target: string): boolean | undefined {
    const state = this.reachability.get(target);
    if (!state) return undefined;
    if (state.lastFailureMs === undefined) return true;
    if (state.lastAnswerMs === undefined) return false;
    return state.lastFailureMs - state.lastAnswerMs <= state.graceMs;
  }

  recordRun(
    target: string,
    collector: string,
    run: { success: boolean; durationSeconds: number; nowSeconds: number; intervalSeconds: number },
  ): void {
    const { success, durationSeconds, nowSeconds, intervalSeconds } = run;
    const status = this.status(target, collector);
    if (status.success !== success || status.intervalSeconds !== intervalSeconds) this.statusMoved(target);
    status.intervalSeconds = intervalSeconds;
    status.success = success;
    status.durationSeconds = toMicroseconds(durationSeconds);
    if (success) status.lastSuccessSeconds = nowSeconds;
  }

  /** A scheduled tick found the previous run still in flight. */
  recordSkipped(target: string, collector: string): void {
    this.status(target, collector).skippedRuns += 1;
    this.statusMoved(target);
  }

  /** A run outlived its deadline and abort; it counts as failed and its late result is dropped. */
  recordAbandoned(target: string, collector: string, durationSeconds: number): void {
    const status = this.status(target, collector);
    status.abandonedRuns += 1;
    status.success = false;
    status.durationSeconds = toMicroseconds(durationSeconds);
    this.statusMoved(target);
  }

  /**
   * The target answers HTTP, yet none of its answers was an API's (a result or a JSON-RPC error):
   * its URL most likely points at something else (another service, a proxy's error page, a wrong port).
   */
  answersButNotAsAnApi(target: string): boolean {
    return this.isTargetUp(target) === true && this.requests.has(target) && !this.answeredAsApi.has(target);
  }

  private status(target: string, collector: string): CollectorStatus {
    const key = `${target}/${collector}`;
    let status = this.collectors.get(key);
    if (!status) {
      // Every field from the start, so all stay inside the object: one added later puts it in a
      // properties array of its own, 9,000 more objects at 1,000 nodes.
      status = {
        target,
        collector,
        success: undefined,
        durationSeconds: 0,
        lastSuccessSeconds: undefined,
        intervalSeconds: undefined,
        skippedRuns: 0,
        abandonedRuns: 0,
        labels: { target, collector },
      };
      this.collectors.set(key, status);
      let keys = this.collectorsOfTarget.get(target);
      if (!keys) this.collectorsOfTarget.set(target, (keys = new Set()));
      keys.add(key);
      this.statusMoved(target);
    }
    return status;
  }

  /**
   * Whether statusSamples(target) may give other samples than when this last answered yes for it:
   * most runs of a fleet change no verdict, and their status need not be built and rendered again
   * only to be found as it was.
   */
  takeStatusMoved(target: string): boolean {
    return this.statusMovedTargets.delete(target);
  }

  private statusMoved(target: string): void {
    this.statusMovedTargets.add(target);
  }

  recordReload(successful: boolean, nowSeconds: number): void {
    this.reloadSuccessful = successful;
    if (successful) this.lastLoadSeconds = nowSeconds;
  }

  /** Every collector's status: the lag tick reads them all each second, so no lookup by key. */
  collectorStatuses(): Iterable<CollectorStatus> {
    return this.collectors.values();
  }

  collectorStatus(target: string, collector: string): CollectorStatus | undefined {
    return this.collectors.get(`${target}/${collector}`);
  }

  /** Drops the state of targets and collectors no longer configured, so their series vanish after a reload. */
  retain(targets: ReadonlySet<string>, collectorKeys: ReadonlySet<string>): void {
    for (const key of this.requests.keys()) if (!targets.has(key)) this.requests.delete(key);
    for (const key of this.queueWaitSeconds.keys()) if (!targets.has(key)) this.queueWaitSeconds.delete(key);
    for (const key of this.reachability.keys()) if (!targets.has(key)) this.reachability.delete(key);
    for (const key of this.statusMovedTargets) if (!targets.has(key)) this.statusMovedTargets.delete(key);
    for (const key of this.answeredAsApi) if (!targets.has(key)) this.answeredAsApi.delete(key);
    for (const [key, status] of this.collectors) {
      if (collectorKeys.has(key)) continue;
      this.collectors.delete(key);
      this.collectorsOfTarget.get(status.target)?.delete(key);
      if (targets.has(status.target)) this.statusMoved(status.target);
    }
    for (const [target, keys] of this.collectorsOfTarget) if (keys.size === 0) this.collectorsOfTarget.delete(target);
  }

  /** Every target with self-metric state. */
  targets(): string[] {
    return [...new Set([...this.reachability.keys(), ...this.collectorsOfTarget.keys(), ...this.requests.keys()])];
  }

  samples(): Sample[] {
    return [
      ...this.globalSamples(),
      ...this.targets().flatMap((target) => [...this.statusSamples(target), ...this.runSamples(target), ...this.requestSamples(target)]),
    ];
  }

  /** The series of no target: build info and reloads. */
  globalSamples(): Sample[] {
    return [
      {
        name: 'avaxmon_build_info',
        labels: { version: this.build.version, node_version: process.version, revision: this.build.revision },
        value: 1,
      },
      { name: 'avaxmon_config_last_reload_successful', labels: {}, value: this.reloadSuccessful ? 1 : 0 },
      { name: 'avaxmon_config_last_reload_success_timestamp_seconds', labels: {}, value: this.lastLoadSeconds },
    ];
  }

  /**
   * Whether the target answers and how each of its collectors fares, but for what every run moves
   * (see runSamples): the alert engine reads them after every run. One slice per target, not per
   * collector: every slice costs a copy per family in each assembly of /metrics and objects for the
   * garbage collector to mark (a slice per collector: 20 MB more at 1,000 nodes).
   */
  statusSamples(target: string): Sample[] {
    const samples: Sample[] = this.reachability.has(target)
      ? [{ name: 'avaxmon_target_up', labels: { target }, value: this.isTargetUp(target) ? 1 : 0 }]
      : [];
    // A collector with nothing to ask (no L1 configured) succeeds without a request; on a target that
    // cannot be reached it reads as failing, so avaxmon_collector_success never contradicts target_up.
    const down = this.isTargetUp(target) === false;
    samples.push(...this.perCollector(target, (status) => collectorStatusSamples(status, down)));
    return samples;
  }

  /**
   * Each collector's last duration and success time: they move at every run, so they are a slice of
   * their own, and the status slice of a fleet that keeps succeeding stays as it was.
   */
  runSamples(target: string): Sample[] {
    return samplesOf((sink) => this.writeRuns(target, sink));
  }

  /** As runSamples, given to a sink: a fleet's thousands of runs a minute make no sample objects. */
  writeRuns(target: string, sink: LineSink): void {
    const keys = this.collectorsOfTarget.get(target) ?? NO_KEYS;
    for (const key of keys) {
      const status = this.collectors.get(key)!;
      if (status.success !== undefined) sink.line('avaxmon_collector_duration_seconds', status.labels, status.durationSeconds);
    }
    for (const key of keys) {
      const status = this.collectors.get(key)!;
      if (status.lastSuccessSeconds !== undefined)
        sink.line('avaxmon_collector_last_success_timestamp_seconds', status.labels, status.lastSuccessSeconds);
    }
  }

  private perCollector(target: string, samplesFor: (status: CollectorStatus) => Sample[]): Sample[] {
    const samples: Sample[] = [];
    for (const key of this.collectorsOfTarget.get(target) ?? []) samples.push(...samplesFor(this.collectors.get(key)!));
    return samples;
  }

  /** The target's request counts, which every collector of it moves. */
  requestSamples(target: string): Sample[] {
    return samplesOf((sink) => this.writeRequests(target, sink));
  }

  /** As requestSamples, given to a sink: rendered for every target before each scrape. */
  writeRequests(target: string, sink: LineSink): void {
    this.requests.get(target)?.write(sink);
    const waited = this.queueWaitSeconds.get(target);
    if (waited !== undefined) sink.line('avaxmon_request_queue_wait_seconds_total', { target }, waited);
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();

function collectorStatusSamples(status: CollectorStatus, targetDown: boolean): Sample[] {
  const { labels } = status;
  const samples: Sample[] = [];
  if (status.success !== undefined)
    samples.push({ name: 'avaxmon_collector_success', labels, value: status.success && !targetDown ? 1 : 0 });
  if (status.intervalSeconds !== undefined)
    samples.push({ name: 'avaxmon_collector_interval_seconds', labels, value: status.intervalSeconds });
  samples.push({ name: 'avaxmon_collector_skipped_runs_total', labels, value: status.skippedRuns });
  // Nine series a node that stay 0 unless a run hangs past its deadline: exported from the first abandoned run on.
  if (status.abandonedRuns > 0) samples.push({ name: 'avaxmon_collector_abandoned_runs_total', labels, value: status.abandonedRuns });
  return samples;
}

/**
 * A run's duration to the microsecond: finer is noise, and the 17 digits of a full double are text
 * a rendering cannot compare without making it (decimal-text.ts), for every collector at every run.
 */
function toMicroseconds(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}
