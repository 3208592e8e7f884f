import type { Outcome } from '../errors.js';
import type { Sample } from './metric-desc.js';

interface CollectorStatus {
  success: boolean;
  durationSeconds: number;
  lastSuccessSeconds?: number;
}

/** avaxmon's own state as samples: collector status, request outcomes, target reachability, reloads. */
export class SelfMetrics {
  private readonly requests = new Map<string, number>();
  private readonly collectors = new Map<string, CollectorStatus>();
  private readonly targetUp = new Map<string, boolean>();
  private reloadSuccessful = true;
  private lastLoadSeconds = Date.now() / 1000;

  constructor(private readonly build: { version: string; revision: string }) {}

  recordRequest(target: string, method: string, outcome: Outcome): void {
    const key = JSON.stringify([target, method, outcome]);
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  /** A node is up while its requests get HTTP answers, even 503s: those come from the node itself. */
  recordReachability(target: string, reachable: boolean): void {
    this.targetUp.set(target, reachable);
  }

  recordRun(target: string, collector: string, success: boolean, durationSeconds: number, nowSeconds: number): void {
    const key = JSON.stringify([target, collector]);
    const previous = this.collectors.get(key);
    this.collectors.set(key, {
      success,
      durationSeconds,
      lastSuccessSeconds: success ? nowSeconds : previous?.lastSuccessSeconds,
    });
  }

  recordReload(successful: boolean, nowSeconds: number): void {
    this.reloadSuccessful = successful;
    if (successful) this.lastLoadSeconds = nowSeconds;
  }

  isTargetUp(target: string): boolean | undefined {
    return this.targetUp.get(target);
  }

  collectorStatus(target: string, collector: string): CollectorStatus | undefined {
    return this.collectors.get(JSON.stringify([target, collector]));
  }

  /** Drops the state of targets no longer configured, so their series vanish after a reload. */
  retainTargets(targets: ReadonlySet<string>): void {
    for (const map of [this.requests, this.collectors, this.targetUp] as Map<string, unknown>[]) {
      for (const key of map.keys()) {
        const target = key.startsWith('[') ? (JSON.parse(key) as string[])[0] : key;
        if (!targets.has(target)) map.delete(key);
      }
    }
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
    for (const [target, up] of this.targetUp) samples.push({ name: 'avaxmon_target_up', labels: { target }, value: up ? 1 : 0 });
    for (const [key, status] of this.collectors) {
      const [target, collector] = JSON.parse(key) as [string, string];
      const labels = { target, collector };
      samples.push({ name: 'avaxmon_collector_success', labels, value: status.success ? 1 : 0 });
      samples.push({ name: 'avaxmon_collector_duration_seconds', labels, value: status.durationSeconds });
      if (status.lastSuccessSeconds !== undefined) {
        samples.push({ name: 'avaxmon_collector_last_success_timestamp_seconds', labels, value: status.lastSuccessSeconds });
      }
    }
    for (const [key, count] of this.requests) {
      const [target, method, outcome] = JSON.parse(key) as [string, string, string];
      samples.push({ name: 'avaxmon_rpc_requests_total', labels: { target, method, outcome }, value: count });
    }
    return samples;
  }
}
