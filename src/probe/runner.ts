import type { Logger } from 'pino';
import { HttpClient } from '../clients/http.js';
import { ResponseMemory } from '../clients/response-memory.js';
import { collectorRegistry } from '../collectors/index.js';
import type { Config, TargetConfig } from '../config/schema.js';
import { transportsOf } from '../config/transports.js';
import { nodeSliceRun, runSlice } from '../collectors/run-collector.js';
import type { Sample } from '../metrics/metric-desc.js';
import { allMetrics } from '../metrics/catalogue/index.js';
import { MetricsSnapshot } from '../metrics/snapshot.js';
import { SelfMetrics } from '../metrics/self-metrics.js';
import { TargetRuntimes } from '../daemon/target-runtimes.js';
import type { DaemonView } from '../server/daemon-view.js';
import { REVISION, VERSION } from '../runtime/version.js';

/** Past this many distinct probed targets, probe memory starts over, so URL probes cannot grow it forever. */
export const MAX_REMEMBERED_TARGETS = 1024;

/**
 * Runs one target's collectors on demand for GET /probe. It has its own HTTP pools, request counters
 * and collector memory, and writes into a scratch snapshot per probe: a probe never touches the
 * scheduled snapshot, so /metrics and /probe of the same target do not disturb each other.
 */
export class ProbeRunner {
  private http: HttpClient;
  private self = this.freshSelf();
  private runtimes: TargetRuntimes;
  private readonly remembered = new Set<string>();
  /** Clients replaced by a reset, closing once their in-flight probes finish. */
  private readonly retiring = new Set<Promise<void>>();

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly maxRememberedTargets = MAX_REMEMBERED_TARGETS,
    private readonly shared: Pick<DaemonView, 'collectorRegistry' | 'responseMemory'> = {
      collectorRegistry,
      responseMemory: new ResponseMemory(),
    },
  ) {
    this.http = this.freshHttp();
    this.runtimes = this.freshRuntimes();
  }

  /** Every series of the target for this run, plus its request counters and probe outcome. */
  async probe(target: TargetConfig, config: Config, timeoutMs: number, signal: AbortSignal): Promise<Sample[]> {
    this.remember(target.name);
    const scratch = new MetricsSnapshot(allMetrics);
    const started = performance.now();
    const runtimes = this.runtimes.forTarget(target, config, timeoutMs);
    const deps = { snapshot: scratch, self: this.self, log: this.log.child({ probe: true }) };
    const results = await Promise.all(runtimes.map((runtime) => runSlice(nodeSliceRun(runtime), deps, signal)));
    const labels = { target: target.name };
    return [
      ...scratch.samples(),
      ...this.self.samples().filter((sample) => sample.labels.target === target.name),
      { name: 'avaxmon_probe_success', labels, value: results.every((result) => result.success) ? 1 : 0 },
      { name: 'avaxmon_probe_duration_seconds', labels, value: (performance.now() - started) / 1000 },
    ];
  }

  async close(): Promise<void> {
    await Promise.all([this.http.close(), ...this.retiring]);
  }

  /**
   * Past the limit, memory starts over, and so do the HTTP pools: each probed URL has its own pool,
   * so URL probes under a broad allowed_targets glob would otherwise open pools without bound.
   */
  private remember(name: string): void {
    if (this.remembered.has(name)) return;
    if (this.remembered.size >= this.maxRememberedTargets) {
      this.remembered.clear();
      this.retire(this.http);
      this.http = this.freshHttp();
      this.self = this.freshSelf();
      this.runtimes = this.freshRuntimes();
    }
    this.remembered.add(name);
  }

  /** Undici's close lets in-flight requests finish, so probes still running on the old client complete. */
  private retire(http: HttpClient): void {
    const closing = http.close().catch((error: unknown) => this.log.warn({ err: error }, 'Closing retired probe HTTP pools failed'));
    this.retiring.add(closing);
    void closing.finally(() => this.retiring.delete(closing));
  }

  private freshHttp(): HttpClient {
    const { config, shared } = this;
    return new HttpClient({
      maxResponseBytes: config.global.max_response_bytes,
      transports: transportsOf(config),
      responseMemory: shared.responseMemory,
    });
  }

  private freshRuntimes(): TargetRuntimes {
    return new TargetRuntimes(this.http, this.self, this.shared.collectorRegistry);
  }

  private freshSelf(): SelfMetrics {
    return new SelfMetrics({ version: VERSION, revision: REVISION });
  }
}
