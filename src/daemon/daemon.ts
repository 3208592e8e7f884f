import { logReachability } from './target-reachability-log.js';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AlertPlane } from '../alerts/alert-plane.js';
import type { AlertsConfig } from '../config/alerts-schema.js';
import { EvaluationSchedule } from '../alerts/evaluation-schedule.js';
import { ALERT_READ_FAMILIES, FLEET_FAMILIES } from '../alerts/evaluation/read-families.js';
import { STATUS_PAGE_FAMILIES } from '../server/target-status.js';
import { HttpClient } from '../clients/http.js';
import { ResponseMemory } from '../clients/response-memory.js';
import { every, SteadyClock, systemClock, type Clock } from '../schedule/clock.js';
import { waitAtMost } from '../alerts/wait-at-most.js';
import { LastGoodFacts } from '../collectors/last-good-facts.js';
import { collectorRegistry, type CollectorRegistry } from '../collectors/index.js';
import { loadConfigFile } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { transportsOf } from '../config/transports.js';
import { ConfigError, formatConfigIssue } from '../errors.js';
import { nodeSliceRun, runSlice, sliceKey, type CollectorRunDeps, type SliceRun } from '../collectors/run-collector.js';
import { PublicApiJobs } from '../collectors/public/index.js';
import { allMetrics } from '../metrics/catalogue/index.js';
import { CollectionLag } from '../metrics/collection-lag.js';
import { MetricsSnapshot } from '../metrics/snapshot.js';
import { SelfMetrics } from '../metrics/self-metrics.js';
import { displayUrl, scrubSecrets } from '../config/redact.js';
import { assertStateDirUsable } from '../config/state-dir.js';
import { ABANDON_GRACE_MS, Scheduler, type Job } from '../schedule/scheduler.js';
import { stableHash } from '../schedule/stable-hash.js';
import { buildApp } from '../server/app.js';
import type { CollectorState, DaemonView, StatusView } from '../server/daemon-view.js';
import { SliceJob, type SliceJobEvents } from '../schedule/slice-job.js';
import type { WebOptions } from '../server/web-config.js';
import { TargetRuntimes } from './target-runtimes.js';
import { lastResortCollection } from '../runtime/last-resort-collection.js';
import { REVISION, VERSION } from '../runtime/version.js';

export interface DaemonOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** Where reloads read the config from; without it, reload is refused. */
  readonly configFile?: string;
  readonly web?: WebOptions;
  /** Where receivers link back to (externalURL, generatorURL) when `alerts.external_url` is unset. */
  readonly externalUrl?: string;
  readonly shard?: Shard;
  /** The collectors by name; the production registry by default. */
  readonly collectorRegistry?: CollectorRegistry;
  /** The budget for upstream bodies being read at once; a new one by default, its limit set from the config. */
  readonly responseMemory?: ResponseMemory;
  /** Schedules, stall detection and the bounds on reload and stop run on it; the system clock by default. */
  readonly clock?: Clock;
}

export type { CollectorState } from '../server/daemon-view.js';

const SELF_SLICE = '~self';
/** Each target's collectors' durations and success times (SelfMetrics.writeRuns). */
const RUNS_SLICE = '~runs';
const REQUESTS_SLICE = '~requests';
const LAG_SLICE = '~lag';
/** How often collection's lag is taken: AvaxmonCollectionLagging and the status page read it. */
const LAG_TICK_MS = 1_000;
/**
 * What is collected while stopping is lost anyway (evaluation has stopped), so the grace only lets
 * runs about to end close their requests themselves before the abort. At 1,000 nodes on a full core
 * runs are always in flight and a stop used all of a 1 s grace: SIGTERM took 1.4-1.8 s of its 2 s.
 */
export const STOP_GRACE_MS = 250;
/**
 * How long a stop waits for aborted runs to unwind, and then for the upstream connections to close:
 * past that the process exits with them (a run abandoned later writes nothing that outlives it).
 */
const STOP_UNWIND_MS = 250;
export const RELOAD_GRACE_MS = 2_000;
/** Anything the daemon awaits while reloading or stopping gets this long, so neither can hang. */
const STEP_BOUND_MS = 2_000;
/**
 * Collection has stalled when no run has ended for this many of the shortest intervals (plus the
 * abandon grace): every run ends or is abandoned within its interval plus that grace.
 */
const STALL_INTERVALS = 3;

/** Which replica this is, with `--shard=INDEX/COUNT`: it collects the targets whose name hashes to INDEX. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * Wires config, clients, scheduler, metrics and the HTTP app. It never listens itself: main.ts
 * (or a test) calls `app.listen`, as with fastify's app/listen split.
 */
export class Daemon implements DaemonView {
  readonly snapshot: MetricsSnapshot;
  readonly self: SelfMetrics;
  readonly app: FastifyInstance;
  readonly collectorStates = new Map<string, CollectorState>();
  /** Extra sections of the status page (alerts, receivers), each rendering escaped HTML. */
  readonly statusSections: Array<(view: StatusView) => string> = [];
  readonly collectorRegistry: CollectorRegistry;
  readonly responseMemory: ResponseMemory;
  /** Targets whose request counts moved since the last scrape. */
  private readonly requestsMoved = new Set<string>();
  private readonly http: HttpClient;
  private readonly runtimes: TargetRuntimes;
  private readonly publicApis: PublicApiJobs;
  private readonly alerts: EvaluationSchedule;
  readonly clock: Clock;
  private readonly lag = new CollectionLag();
  private stopLagTicks?: () => void;
  private scheduler?: Scheduler;
  /** The current scheduler's jobs by slice key, for running some out of turn (catchUp). */
  private readonly jobs = new Map<string, Job>();
  /**
   * Run after each first round (the start's and every reload's): its bodies and promoted runs left
   * V8's heap far larger than what is live, and an ordinary full collection neither compacts it
   * nor hands pages back, so the process kept the round's size for good (at 1,000 Mainnet-sized
   * nodes, 128 MB of heap pages on Node 24 against 110-112 MB compacted;
   * docs/decisions.md#the-heap-is-compacted-once-after-each-first-round).
   */
  private readonly compactHeap = lastResortCollection();
  /** What every run of a slice is given: the same for all of them, so made once. */
  private readonly runDeps: CollectorRunDeps;
  private readonly facts: LastGoodFacts;
  /** What the scheduler's events on a slice job do; one handler for every job. */
  private readonly jobEvents: SliceJobEvents = {
    run: (job, signal) => this.runJob(job, signal),
    started: (job, delayMs) => this.lag.recordStart(job.slice.collector, delayMs),
    skipped: ({ slice }) => {
      this.self.recordSkipped(slice.target, slice.collector);
      this.publishRun(slice, new Set());
    },
    abandoned: (job, elapsedMs) => {
      const { id: key, slice, state } = job;
      job.generation++;
      const families = new Set(this.snapshot.familiesOf(key));
      this.snapshot.setSlice(key, []);
      this.self.recordAbandoned(slice.target, slice.collector, elapsedMs / 1000);
      state.lastError = `run abandoned: no end ${Math.round(elapsedMs)} ms after it started, despite its abort`;
      this.publishRun(slice, families);
    },
  };
  private firstRoundComplete = false;
  private stopping = false;
  private lastRunEndedMs: number;
  private shortestIntervalMs = Infinity;
  private opened = false;
  private configValue: Config;
  /** Reloads run one at a time: two overlapping ones would each start a scheduler. */
  private reloadChain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DaemonOptions) {
    this.configValue = options.config;
    this.clock = options.clock ?? systemClock;
    this.snapshot = new MetricsSnapshot(allMetrics, {
      keepSamplesOf: new Set([...ALERT_READ_FAMILIES, ...STATUS_PAGE_FAMILIES]),
      indexSlicesOf: FLEET_FAMILIES,
      clock: this.clock,
    });
    this.self = new SelfMetrics({
      version: VERSION,
      revision: REVISION,
      clock: this.clock,
      onReachabilityChange: logReachability(options.logger),
    });
    this.facts = new LastGoodFacts(options.config.global.stale_facts_max_age);
    this.runDeps = {
      snapshot: this.snapshot,
      self: this.self,
      log: options.logger,
      clock: this.clock,
      facts: this.facts,
      steady: new SteadyClock(this.clock),
    };
    this.lastRunEndedMs = this.clock.now();
    this.collectorRegistry = options.collectorRegistry ?? collectorRegistry;
    this.responseMemory = options.responseMemory ?? new ResponseMemory({ clock: this.clock });
    this.responseMemory.setLimit(options.config.global.max_response_memory_bytes);
    const { max_response_bytes: maxResponseBytes } = options.config.global;
    this.http = new HttpClient({ maxResponseBytes, transports: transportsOf(options.config), responseMemory: this.responseMemory });
    this.runtimes = new TargetRuntimes(this.http, this.self, this.collectorRegistry);
    this.publicApis = new PublicApiJobs(this.http, this.self);
    this.app = buildApp(this, options.web ?? {});
    const collectorState = (target: string, collector: string) => this.collectorStates.get(sliceKey(target, collector));
    this.alerts = new EvaluationSchedule(options.logger, this.snapshot, {
      collectors: collectorState,
      responseMemory: this.responseMemory,
      clock: this.clock,
    });
    this.statusSections.push((view) => this.alerts.statusSection(view));
    this.snapshot.beforeServe(() => this.publishRequestCounts());
  }

  /**
   * Opens what the schema cannot check (the alert state directory). main.ts calls it before
   * listening, so a bad state_dir is a start-up error (exit 2), not a crash at the first alert.
   */
  async open(): Promise<void> {
    if (this.opened) return;
    assertStateDirUsable(this.configValue.alerts?.stateDir);
    await this.alerts.configure(this.withExternalUrl(this.configValue.alerts), this.targetNames(this.configValue));
    this.opened = true;
  }

  get config(): Config {
    return this.configValue;
  }

  /** The alert plane, while the config has an `alerts:` section (for the Alertmanager API). */
  get alerting(): AlertPlane | undefined {
    return this.alerts.current;
  }

  get log(): Logger {
    return this.options.logger;
  }

  /** Ready once the first round is complete, and for as long as collection has not stalled. */
  isReady(): boolean {
    return this.firstRoundComplete && !this.isStalled();
  }

  /** Why /-/ready says not ready, for its 503 body. */
  notReadyReason(): string {
    return this.firstRoundComplete ? 'collection has stalled: no collector run has ended recently' : 'first collection round in progress';
  }

  private isStalled(nowMs = this.clock.now()): boolean {
    if (this.shortestIntervalMs === Infinity) return false;
    return nowMs - this.lastRunEndedMs > STALL_INTERVALS * this.shortestIntervalMs + ABANDON_GRACE_MS;
  }

  /** Starts collection; resolves after the first round, when /-/ready turns ready. */
  async start(): Promise<void> {
    await this.open();
    await this.schedule(this.configValue);
    this.firstRoundComplete = true;
    this.publishLag();
    this.stopLagTicks ??= every(this.clock, LAG_TICK_MS, () => this.publishLag());
    this.alerts.startEvaluating();
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
      await this.alerts.configure(this.withExternalUrl(config.alerts), this.targetNames(config));
    } catch (error) {
      const errors = error instanceof ConfigError ? error.issues.map(formatConfigIssue) : [String(error)];
      for (const message of errors) this.log.error({ issue: message }, 'Config reload failed; keeping the running config');
      this.self.recordReload(false, this.clock.now() / 1000);
      this.publishGlobalSelf();
      return { ok: false, errors };
    }
    // Bounded: the scheduler abandons runs that ignore their abort.
    await this.scheduler?.stop({ graceMs: RELOAD_GRACE_MS });
    this.configValue = config;
    this.http.setMaxResponseBytes(config.global.max_response_bytes);
    this.responseMemory.setLimit(config.global.max_response_memory_bytes);
    this.facts.setMaxAge(config.global.stale_facts_max_age);
    await this.within(this.http.retainOrigins(configuredOrigins(config)), STEP_BOUND_MS);
    await this.within(this.http.setTransports(transportsOf(config)), STEP_BOUND_MS);
    this.self.recordReload(true, this.clock.now() / 1000);
    this.publishGlobalSelf();
    void this.schedule(config);
    this.log.info({ targets: config.targets.length }, 'Config reloaded');
    return { ok: true, errors: [] };
  }

  /**
   * Gives in-flight collection a short grace, then cancels what is left (a Metrics API run may take
   * minutes; `docker stop` waits 10 s), drains the alert outbox briefly, and closes the HTTP clients.
   */
  /** The targets this replica collects, whose names the alerts' `target` label takes. */
  private targetNames(config: Config): string[] {
    const shard = this.options.shard;
    const names = config.targets.map((target) => target.name);
    return shard ? names.filter((name) => inShard(name, shard)) : names;
  }

  /** Prometheus' default: links point at this daemon, so a notification's externalURL is never empty. */
  private withExternalUrl(alerts: AlertsConfig | undefined): AlertsConfig | undefined {
    return alerts && !alerts.externalUrl && this.options.externalUrl ? { ...alerts, externalUrl: this.options.externalUrl } : alerts;
  }

  /**
   * Bounded whatever the fleet's size and the receivers' health (within STOP_GRACE_MS plus a few
   * short bounds): evaluation stops first, so runs ending meanwhile (many cut short by this stop)
   * change no alert and write nothing; collection's grace and the outbox's drain run side by side;
   * the alert state is written last. What was collected while stopping is lost anyway; what was
   * not delivered stays in the outbox for the next start.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopLagTicks?.();
    this.alerts.stopEvaluating();
    await this.within(this.reloadChain, RELOAD_GRACE_MS + ABANDON_GRACE_MS + 2 * STEP_BOUND_MS);
    const collection = this.scheduler?.stop({ graceMs: STOP_GRACE_MS }) ?? Promise.resolve();
    await Promise.all([this.within(collection, STOP_GRACE_MS + STOP_UNWIND_MS), this.alerts.stop()]);
    await this.within(this.http.close(), STOP_UNWIND_MS);
  }

  /** Waits for `promise` at most `ms`; what it does after that no longer holds anyone up. */
  private async within(promise: Promise<unknown>, ms: number): Promise<void> {
    await waitAtMost(this.clock, promise, ms);
  }

  private async schedule(config: Config): Promise<void> {
    // A reload that outlived stop()'s wait for it must not start collection again.
    if (this.stopping) return;
    const all = [...this.runtimes.build(config).map(nodeSliceRun), ...this.publicApis.build(config)];
    const shard = this.options.shard;
    const runs = shard ? all.filter((run) => inShard(run.target, shard)) : all;
    this.forgetRemovedSlices(runs);
    this.shortestIntervalMs = Math.min(...runs.map((run) => run.intervalMs));
    this.lastRunEndedMs = this.clock.now();
    const scheduler = new Scheduler(this.log, {
      clock: this.clock,
      jitterRatio: config.global.jitter_ratio,
      maxConcurrent: config.global.max_concurrent_collections,
      maxConcurrentPerOrigin: config.global.max_concurrent_collections_per_origin,
    });
    this.scheduler = scheduler;
    this.jobs.clear();
    const jobs = runs.map((run) => this.jobFor(run));
    for (const job of jobs) this.jobs.set(job.id, job);
    await scheduler.start(jobs);
    this.compactHeap?.();
    this.warnMisdirectedTargets(config);
  }

  /**
   * Each collector announces its own failure, one line per call, and none of those lines says what
   * the operator has to fix when the URL is simply not a node's API: this one does, after the first
   * round and after each reload's.
   */
  private warnMisdirectedTargets(config: Config): void {
    if (this.stopping) return;
    for (const target of config.targets)
      if (this.self.answersButNotAsAnApi(target.name))
        this.log.warn(
          { target: target.name, url: displayUrl(target.url) },
          "Target answers HTTP, but not as AvalancheGo: is its url the node's HTTP API (port 9650 by default, no path)?",
        );
  }

  private jobFor(run: SliceRun): SliceJob {
    const key = sliceKey(run.target, run.collector);
    const state: CollectorState = { target: run.target, collector: run.collector, intervalMs: run.intervalMs };
    this.collectorStates.set(key, state);
    return new SliceJob(key, run, state, this.jobEvents);
  }

  private async runJob(job: SliceJob, signal: AbortSignal): Promise<void> {
    const { id: key, slice: run, state } = job;
    const mine = ++job.generation;
    const sliceBefore = this.sliceState(key);
    const statusBefore = this.sliceState(selfSliceOf(run.target));
    const upBefore = this.self.isTargetUp(run.target);
    const result = await runSlice(run, this.runDeps, signal, () => mine === job.generation && this.collectorStates.get(key) === state);
    if (result.dropped) return;
    // Only a run that ended counts against a stall: skipped and abandoned runs are its symptoms.
    this.lastRunEndedMs = this.clock.now();
    state.lastError = result.success ? undefined : scrubSecrets(String((result.error as Error)?.message ?? result.error));
    this.publishSelfOf(run.target);
    // Rules move with the slices the run moved: its series, and its collector's status when it starts
    // or stops failing. Most runs move neither; the sweep covers what time alone moves.
    const changed =
      upBefore === this.self.isTargetUp(run.target)
        ? new Set([...this.movedFamilies(key, sliceBefore), ...this.movedFamilies(selfSliceOf(run.target), statusBefore)])
        : undefined;
    this.alerts.afterRun(run.target, changed);
    if (upBefore === false && this.self.isTargetUp(run.target) && !this.lag.behind) this.catchUp(run.target, key);
  }

  private sliceState(key: string): SliceState {
    return { version: this.snapshot.sliceVersion(key), families: this.snapshot.familiesOf(key) };
  }

  /** The families of a slice that moved since `before`, those it held then included (a family that went moved); none if it is as it was. */
  private movedFamilies(key: string, before: SliceState): string[] {
    return this.snapshot.sliceVersion(key) === before.version ? [] : [...before.families, ...this.snapshot.familiesOf(key)];
  }

  /**
   * A target that answers again after an outage: its collectors that failed meanwhile run now, not
   * at their next tick, so a 5-minute collector's series (and the alerts reading them) are not
   * missing for minutes after the node is back. Not while collection is behind: a daemon short of
   * CPU also sees targets time out and come back, and extra runs would only deepen its backlog.
   */
  private catchUp(target: string, recoveredBy: string): void {
    for (const [key, job] of this.jobs) {
      const state = this.collectorStates.get(key);
      if (key === recoveredBy || state?.target !== target || state.lastError === undefined) continue;
      void this.scheduler?.trigger(job);
    }
  }

  /** After a skipped or abandoned run: its collector's status, and the rules reading what changed. */
  private publishRun(run: SliceRun, changedFamilies: ReadonlySet<string> | undefined): void {
    this.publishSelfOf(run.target);
    this.alerts.afterRun(run.target, changedFamilies);
  }

  private publishSelfOf(target: string): void {
    if (this.self.takeStatusMoved(target)) this.snapshot.setSlice(selfSliceOf(target), this.self.statusSamples(target));
    this.snapshot.setLines(runsSliceOf(target), (sink) => this.self.writeRuns(target, sink));
    this.requestsMoved.add(target);
  }

  /**
   * Request counts are rendered when a scrape comes, not after each run: no rule reads them, and a
   * target's runs come several times between two scrapes.
   */
  private publishRequestCounts(): void {
    for (const target of this.requestsMoved)
      this.snapshot.setLines(`${REQUESTS_SLICE}/${target}`, (sink) => this.self.writeRequests(target, sink));
    this.requestsMoved.clear();
  }

  /** Collectors behind schedule, for the status page. */
  laggingCollectors(): number {
    return this.lag.lagging;
  }

  private publishLag(): void {
    this.lag.update(this.self.collectorStatuses(), this.clock.now() / 1000, this.scheduler?.concurrencyCap);
    this.snapshot.setSlice(LAG_SLICE, this.lag.samples());
  }

  private publishGlobalSelf(): void {
    this.snapshot.setSlice(SELF_SLICE, this.self.globalSamples());
  }

  private forgetRemovedSlices(runs: readonly SliceRun[]): void {
    const keep = new Set(runs.map((run) => sliceKey(run.target, run.collector)));
    const targets = new Set(runs.map((run) => run.target));
    for (const [key, state] of [...this.collectorStates]) {
      if (keep.has(key)) continue;
      this.collectorStates.delete(key);
      this.snapshot.setSlice(key, []);
      if (targets.has(state.target)) continue;
      this.snapshot.setSlice(selfSliceOf(state.target), []);
      this.snapshot.setSlice(runsSliceOf(state.target), []);
      this.snapshot.setSlice(`${REQUESTS_SLICE}/${state.target}`, []);
      this.requestsMoved.delete(state.target);
    }
    this.self.retain(targets, keep);
    this.facts.retain(keep);
    for (const target of targets) this.publishSelfOf(target);
    this.publishGlobalSelf();
  }
}

/** A slice's version and families before a run, to tell what the run moved. */
interface SliceState {
  readonly version: number | undefined;
  readonly families: readonly string[];
}

function selfSliceOf(target: string): string {
  return `${SELF_SLICE}/${target}`;
}

function runsSliceOf(target: string): string {
  return `${RUNS_SLICE}/${target}`;
}

/** Whether a target belongs to this shard: a stable hash of its name, so every replica agrees. */
export function inShard(target: string, shard: Shard): boolean {
  return stableHash(target) % shard.count === shard.index;
}

/** Every origin the config makes requests to: nodes, L1 RPC endpoints and the public APIs. */
function configuredOrigins(config: Config): Set<string> {
  const urls = [
    ...config.targets.flatMap((target) => [target.url, ...target.subnets.flatMap((subnet) => subnet.rpc_url ?? [])]),
    ...[config.metrics_api?.url, config.data_api?.url].filter((url): url is string => url !== undefined),
  ];
  return new Set(urls.map((url) => new URL(url).origin));
}
