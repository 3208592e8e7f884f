import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Alerting } from './alerts/alerting.js';
import { DaemonAlerts } from './alerts/daemon-alerts.js';
import { HttpClient } from './clients/http.js';
import { loadConfigFile } from './config/load.js';
import type { Config } from './config/schema.js';
import { ConfigError, formatConfigIssue } from './errors.js';
import { nodeSliceRun, runSlice, sliceKey, type SliceRun } from './collectors/run-collector.js';
import { PublicApiJobs } from './collectors/public/index.js';
import { allMetrics } from './metrics/catalogue/index.js';
import { MetricsSnapshot } from './metrics/snapshot.js';
import { SelfMetrics } from './metrics/self-metrics.js';
import { scrubSecrets } from './redact.js';
import { assertStateDirUsable } from './config/state-dir.js';
import { Scheduler, type Job } from './scheduler.js';
import { buildApp, type WebOptions } from './server/app.js';
import { TargetRuntimes } from './targets.js';
import { REVISION, VERSION } from './version.js';

export interface DaemonOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** Where reloads read the config from; without it, reload is refused. */
  readonly configFile?: string;
  readonly web?: WebOptions;
}

export interface CollectorState {
  readonly target: string;
  readonly collector: string;
  readonly intervalMs: number;
  lastError?: string;
}

const SELF_SLICE = '~self';
const STOP_GRACE_MS = 5_000;
const RELOAD_GRACE_MS = 5_000;

/**
 * Wires config, clients, scheduler, metrics and the HTTP app. It never listens itself: main.ts
 * (or a test) calls `app.listen`, as with fastify's app/listen split.
 */
export class Daemon {
  readonly snapshot = new MetricsSnapshot(allMetrics);
  readonly self = new SelfMetrics({ version: VERSION, revision: REVISION });
  readonly app: FastifyInstance;
  readonly collectorStates = new Map<string, CollectorState>();
  /** Extra sections of the status page (alerts, receivers), each rendering escaped HTML. */
  readonly statusSections: Array<() => string> = [];
  private readonly http: HttpClient;
  private readonly runtimes: TargetRuntimes;
  private readonly publicApis: PublicApiJobs;
  private readonly alerts: DaemonAlerts;
  private scheduler?: Scheduler;
  private ready = false;
  private opened = false;
  private configValue: Config;
  /** Reloads run one at a time: two overlapping ones would each start a scheduler. */
  private reloadChain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DaemonOptions) {
    this.configValue = options.config;
    this.http = new HttpClient({ maxResponseBytes: options.config.global.max_response_bytes });
    this.runtimes = new TargetRuntimes(this.http, this.self);
    this.publicApis = new PublicApiJobs(this.http, this.self);
    this.app = buildApp(this, options.web ?? {});
    this.alerts = new DaemonAlerts(options.logger, (target, collector) => this.collectorStates.get(sliceKey(target, collector)));
    this.statusSections.push(() => this.alerts.statusSection());
  }

  /**
   * Opens what the schema cannot check (the alert state directory). main.ts calls it before
   * listening, so a bad state_dir is a start-up error (exit 2), not a crash at the first alert.
   */
  async open(): Promise<void> {
    if (this.opened) return;
    assertStateDirUsable(this.configValue.alerts?.stateDir);
    await this.alerts.configure(this.configValue.alerts);
    this.opened = true;
  }

  get config(): Config {
    return this.configValue;
  }

  /** The alert plane, while the config has an `alerts:` section (for the Alertmanager API). */
  get alerting(): Alerting | undefined {
    return this.alerts.current;
  }

  get log(): Logger {
    return this.options.logger;
  }

  isReady(): boolean {
    return this.ready;
  }

  /** Starts collection; resolves after the first round, when /-/ready turns ready. */
  async start(): Promise<void> {
    await this.open();
    await this.schedule(this.configValue);
    this.ready = true;
    this.log.info({ targets: this.configValue.targets.length }, 'First collection round complete');
  }

  async reload(): Promise<{ ok: boolean; errors: string[] }> {
    const reload = this.reloadChain.then(() => this.reloadOnce());
    this.reloadChain = reload.catch(() => undefined);
    return reload;
  }

  private async reloadOnce(): Promise<{ ok: boolean; errors: string[] }> {
    if (!this.options.configFile) return { ok: false, errors: ['no config file to reload from'] };
    let config: Config;
    try {
      config = loadConfigFile(this.options.configFile);
      assertStateDirUsable(config.alerts?.stateDir);
      // Everything that can fail happens before the running collection is touched.
      await this.alerts.configure(config.alerts);
    } catch (error) {
      const errors = error instanceof ConfigError ? error.issues.map(formatConfigIssue) : [String(error)];
      for (const message of errors) this.log.error({ issue: message }, 'Config reload failed; keeping the running config');
      this.self.recordReload(false, Date.now() / 1000);
      this.publishSelf();
      return { ok: false, errors };
    }
    await this.scheduler?.stop({ graceMs: RELOAD_GRACE_MS });
    this.configValue = config;
    this.http.setMaxResponseBytes(config.global.max_response_bytes);
    await this.http.retainOrigins(configuredOrigins(config));
    this.self.recordReload(true, Date.now() / 1000);
    void this.schedule(config);
    this.log.info({ targets: config.targets.length }, 'Config reloaded');
    return { ok: true, errors: [] };
  }

  /**
   * Gives in-flight collection a short grace, then cancels what is left (a Metrics API run may take
   * minutes; `docker stop` waits 10 s), drains the alert outbox briefly, and closes the HTTP clients.
   */
  async stop(): Promise<void> {
    await this.reloadChain;
    await this.scheduler?.stop({ graceMs: STOP_GRACE_MS });
    await this.alerts.stop();
    await this.http.close();
  }

  private async schedule(config: Config): Promise<void> {
    const runs = [...this.runtimes.build(config).map(nodeSliceRun), ...this.publicApis.build(config)];
    this.forgetRemovedSlices(runs);
    this.scheduler = new Scheduler(this.log, config.global.jitter_ratio);
    await this.scheduler.start(runs.map((run) => this.jobFor(run)));
  }

  private jobFor(run: SliceRun): Job {
    const key = sliceKey(run.target, run.collector);
    const state: CollectorState = { target: run.target, collector: run.collector, intervalMs: run.intervalMs };
    this.collectorStates.set(key, state);
    return {
      id: key,
      intervalMs: run.intervalMs,
      run: async (signal) => {
        const result = await runSlice(run, { snapshot: this.snapshot, self: this.self, log: this.log }, signal);
        state.lastError = result.success ? undefined : scrubSecrets(String((result.error as Error)?.message ?? result.error));
        this.publishSelf();
      },
    };
  }

  /** Self-metrics change with every run, so they are re-rendered with each run's slice. */
  private publishSelf(): void {
    this.snapshot.setSlice(SELF_SLICE, this.self.samples());
    this.alerts.afterRun(this.snapshot, this.ready);
    this.snapshot.render();
  }

  private forgetRemovedSlices(runs: readonly SliceRun[]): void {
    const keep = new Set(runs.map((run) => sliceKey(run.target, run.collector)));
    for (const key of [...this.collectorStates.keys()]) {
      if (keep.has(key)) continue;
      this.collectorStates.delete(key);
      this.snapshot.setSlice(key, []);
    }
    this.self.retain(new Set(runs.map((run) => run.target)), keep);
    this.publishSelf();
  }
}

/** Every origin the config makes requests to: nodes, L1 RPC endpoints and the public APIs. */
function configuredOrigins(config: Config): Set<string> {
  const urls = [
    ...config.targets.flatMap((target) => [target.url, ...target.subnets.flatMap((subnet) => subnet.rpc_url ?? [])]),
    ...[config.metrics_api?.url, config.data_api?.url].filter((url): url is string => url !== undefined),
  ];
  return new Set(urls.map((url) => new URL(url).origin));
}
