import type { Outcome } from '../errors.js';
import { LabelledCounter } from './labelled-counter.js';
import type { Sample } from './metric-desc.js';

interface CollectorStatus {
  readonly target: string;
  readonly collector: string;
  success: boolean;
  durationSeconds: number;
  lastSuccessSeconds?: number;
}

interface Reachability {
  lastAnswerMs?: number;
  lastFailureMs?: number;
  /** Failures this soon after an answer are one slow method, not a dead node. */
  graceMs: number;
}

/** avaxmon's own state as samples: collector status, request outcomes, target reachability, reloads. */
export class SelfMetrics {
  private readonly requests = new LabelledCounter('avaxmon_rpc_requests_total');
  private readonly collectors = new Map<string, CollectorStatus>();
  private readonly reachability = new Map<string, Reachability>();
  private reloadSuccessful = true;
  private lastLoadSeconds = Date.now() / 1000;

  constructor(private readonly build: { version: string; revision: string }) {}

  recordRequest(target: string, method: string, outcome: Outcome): void {
    this.requests.add({ target, method, outcome });
  }

  /**
   * A node is up while its requests get HTTP answers, even 503s: those come from the node itself.
   * Collectors run concurrently, so one method timing out while others are answered must not mark
   * the node down: it is down once transport failures continue past `graceMs` after the last answer.
   */
  recordReachability(target: string, reachable: boolean, graceMs: number, nowMs = Date.now()): void {
    const state = this.reachability.get(target) ?? { graceMs };
    state.graceMs = graceMs;
    if (reachable) state.lastAnswerMs = nowMs;
    else state.lastFailureMs = nowMs;
    this.reachability.set(target, state);
  }

  isTargetUp(target: string): boolean | undefined {
    const state = this.reachability.get(target);
    if (!state) return undefined;
    if (state.lastFailureMs === undefined) return true;
    if (state.lastAnswerMs === undefined) return false;
    return state.lastFailureMs - state.lastAnswerMs <= state.graceMs;
  }

  recordRun(target: string, collector: string, success: boolean, durationSeconds: number, nowSeconds: number): void {
    const key = `${target}/${collector}`;
    const previous = this.collectors.get(key);
    this.collectors.set(key, {
      target,
      collector,
      success,
      durationSeconds,
      lastSuccessSeconds: success ? nowSeconds : previous?.lastSuccessSeconds,
    });
  }

  recordReload(successful: boolean, nowSeconds: number): void {
    this.reloadSuccessful = successful;
    if (successful) this.lastLoadSeconds = nowSeconds;
  }

  collectorStatus(target: string, collector: string): CollectorStatus | undefined {
    return this.collectors.get(`${target}/${collector}`);
  }

  /** Drops the state of targets and collectors no longer configured, so their series vanish after a reload. */
  retain(targets: ReadonlySet<string>, collectorKeys: ReadonlySet<string>): void {
    this.requests.retain((labels) => targets.has(labels.target));
    for (const key of this.reachability.keys()) if (!targets.has(key)) this.reachability.delete(key);
    for (const key of this.collectors.keys()) if (!collectorKeys.has(key)) this.collectors.delete(key);
  }

  samples(): Sample[] {
    const samples: Sample[] = [
      {
        name: 'avaxmon_build_info',
        labels: { version: this.build.version, node_version: process.version, revision: this.build.revision },
        value: 1,
      },
      { name: 'avaxmon_config_last_reload_successful', labels: {}, value: this.reloadSuccessful ? 1 : 0 },
      { name: 'avaxmon_config_last_reload_success_timestamp_seconds', labels: {}, value: this.lastLoadSeconds },
    ];
    for (const target of this.reachability.keys()) {
      samples.push({ name: 'avaxmon_target_up', labels: { target }, value: this.isTargetUp(target) ? 1 : 0 });
    }
    for (const status of this.collectors.values()) {
      const labels = { target: status.target, collector: status.collector };
      samples.push({ name: 'avaxmon_collector_success', labels, value: status.success ? 1 : 0 });
      samples.push({ name: 'avaxmon_collector_duration_seconds', labels, value: status.durationSeconds });
      if (status.lastSuccessSeconds !== undefined) {
        samples.push({ name: 'avaxmon_collector_last_success_timestamp_seconds', labels, value: status.lastSuccessSeconds });
      }
    }
    return [...samples, ...this.requests.samples()];
  }
}
