import type { Logger } from 'pino';
import { sleep, SteadyClock, systemClock, type Clock, type Timer } from './clock.js';
import { ConcurrencyGovernor } from './concurrency-governor.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { deadline, patientTimeout } from './deadline.js';
import { DueQueue } from './due-queue.js';
import { stableHash } from './stable-hash.js';

/** The first round is spread over at most this long, so readiness does not wait a whole interval. */
const FIRST_ROUND_SPREAD_MS = 5_000;
// First runs start about this often (25 a second): one node's collectors are ready within a few
// hundred milliseconds, a hundred targets spread over seconds, a large fleet over FIRST_ROUND_SPREAD_MS.
const FIRST_RUN_MS_PER_JOB = 40;
/** After its abort (deadline or stop), a run has this long to unwind before it is abandoned. */
export const ABANDON_GRACE_MS = 2_000;
/** Longest delay a Node timer takes; longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A unit of scheduled work: one collector on one target, or one public-API collector. */
export interface Job {
  readonly id: string;
  readonly intervalMs: number;
  /** Jobs with the same origin share the per-origin concurrency cap. */
  readonly origin?: string;
  run(signal: AbortSignal): Promise<void>;
  /** A run starts, `delayMs` after its scheduled time (the event loop or a concurrency slot held it). */
  started?(delayMs: number): void;
  /** A tick came while the previous run was still in flight. */
  skipped?(): void;
  /** The run outlived its deadline, abort and grace; whatever it returns later must be dropped. */
  abandoned?(elapsedMs: number): void;
}

export interface SchedulerOptions {
  /** Each job's phase is spread over this fraction of its interval. */
  readonly jitterRatio: number;
  readonly maxConcurrent?: number;
  readonly maxConcurrentPerOrigin?: number;
  /** Ticks, deadlines and graces run on this clock; tests pass one they advance by hand. */
  readonly clock?: Clock;
}

interface InFlight {
  readonly done: Promise<void>;
  startedAt: number;
  abandon: () => void;
}

/**
 * Runs each job once at start (spread over at most FIRST_ROUND_SPREAD_MS, so /-/ready can follow the
 * first round soon), then on ticks at a stable phase of its interval: phase = hash(id) mod
 * (interval x jitter_ratio), so a thousand jobs spread over the whole interval instead of firing in
 * one burst. Runs of one job never overlap: a tick that finds the previous run in flight is skipped
 * and counted. A run that has not ended ABANDON_GRACE_MS after its deadline is abandoned, so nothing
 * here ever waits on a collector without bound. Runs wait for a slot under a global and a
 * per-origin cap before they start; their deadline starts with the slot. The global cap starts
 * low, doubles while the event loop has room and narrows while it is saturated (ConcurrencyGovernor).
 */
export class Scheduler {
  /** Every job's next tick; one timer waits for the earliest (9,000 timers at 1,000 nodes otherwise). */
  private readonly ticks = new DueQueue<Job>();
  private timer?: Timer;
  private timerDueMs = Infinity;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly controller = new AbortController();
  private readonly limit: ConcurrencyLimit;
  private readonly governor: ConcurrencyGovernor;
  private readonly clock: Clock;
  /** Ticks are due on this: a step of the wall clock must neither stall collection nor burst it. */
  private readonly steady: SteadyClock;
  private stopped = false;

  constructor(
    private readonly log: Logger,
    private readonly options: SchedulerOptions,
  ) {
    this.limit = new ConcurrencyLimit(options.maxConcurrent ?? Infinity, options.maxConcurrentPerOrigin ?? Infinity);
    this.clock = options.clock ?? systemClock;
    this.governor = new ConcurrencyGovernor(this.limit, options.maxConcurrent ?? Infinity, { clock: this.clock });
    this.steady = new SteadyClock(this.clock);
  }

  /** The overall cap on runs in flight now: the configured one, or narrower while the event loop is saturated. */
  get concurrencyCap(): number {
    return this.governor.current;
  }

  /** Starts every job; resolves when each has completed (or abandoned) its first run. */
  async start(jobs: readonly Job[]): Promise<void> {
    this.governor.start();
    const spreadMs = Math.min(FIRST_ROUND_SPREAD_MS, jobs.length * FIRST_RUN_MS_PER_JOB);
    await Promise.all(jobs.map((job) => this.startJob(job, spreadMs)));
  }

  private async startJob(job: Job, firstRoundSpreadMs: number): Promise<void> {
    const firstAt = this.steady.now() + jitterMs(job.id, Math.min(job.intervalMs * this.options.jitterRatio, firstRoundSpreadMs));
    // The periodic ticks begin no sooner than half an interval after the first run, at the job's phase.
    this.scheduleTick(job, firstAt + job.intervalMs / 2);
    await sleep(this.clock, Math.max(0, firstAt - this.steady.now()));
    if (!this.stopped) await this.trigger(job, firstAt);
  }

  private scheduleTick(job: Job, notBeforeMs: number): void {
    if (this.stopped) return;
    this.queueTick(job, notBeforeMs);
    this.armTimer();
  }

  private queueTick(job: Job, notBeforeMs: number): void {
    this.ticks.push(nextPhaseTime(notBeforeMs, job.intervalMs, jitterMs(job.id, job.intervalMs * this.options.jitterRatio)), job);
  }

  private armTimer(): void {
    const dueMs = this.ticks.nextDueMs();
    if (dueMs === undefined || dueMs >= this.timerDueMs) return;
    this.clock.clearTimeout(this.timer);
    this.timerDueMs = dueMs;
    this.timer = this.clock.setTimeout(() => this.fireDueTicks(), Math.min(Math.max(0, dueMs - this.steady.now()), MAX_TIMER_MS));
  }

  private fireDueTicks(): void {
    this.timer = undefined;
    this.timerDueMs = Infinity;
    if (this.stopped) return;
    const nowMs = this.steady.now();
    for (let dueMs = this.ticks.nextDueMs(); dueMs !== undefined && dueMs <= nowMs; dueMs = this.ticks.nextDueMs()) {
      const { item: job } = this.ticks.pop()!;
      void this.trigger(job, dueMs);
      this.queueTick(job, dueMs + 1);
    }
    // A tick further away than a Node timer can wait got a timer at the maximum: it is re-armed here.
    this.armTimer();
  }

  /** Runs a job now unless it is already running; resolves when that run ends or is abandoned. */
  trigger(job: Job, dueMs = this.steady.now()): Promise<void> {
    const running = this.inFlight.get(job.id);
    if (running) {
      job.skipped?.();
      this.log.debug({ job: job.id }, 'Previous run still in flight; skipping this tick');
      return running.done;
    }
    let settle!: () => void;
    const run: InFlight = { done: new Promise<void>((resolve) => (settle = resolve)), startedAt: this.steady.now(), abandon: () => {} };
    let ended = false;
    const end = (): boolean => {
      if (ended) return false;
      ended = true;
      this.inFlight.delete(job.id);
      settle();
      return true;
    };
    run.abandon = () => {
      if (!end()) return;
      const elapsedMs = this.steady.now() - run.startedAt;
      this.log.warn({ job: job.id, elapsedMs: Math.round(elapsedMs) }, 'Run did not end after its abort; abandoned');
      job.abandoned?.(elapsedMs);
    };
    this.inFlight.set(job.id, run);
    void this.limit.run(job.origin, () => this.execute(job, run, end, dueMs));
    return run.done;
  }

  /**
   * Holds a concurrency slot until the run ends or is abandoned; the deadline starts here. Deadline
   * and grace count the daemon's attention (patientTimeout): a stalled daemon abandons no run for it.
   */
  private async execute(job: Job, run: InFlight, end: () => boolean, dueMs: number): Promise<void> {
    if (this.stopped) return void end();
    run.startedAt = this.steady.now();
    job.started?.(run.startedAt - dueMs);
    let cancelAbandon = () => {};
    const onAbort = () => {
      cancelAbandon = patientTimeout(this.clock, ABANDON_GRACE_MS, run.abandon);
    };
    const { signal, release } = deadline(job.intervalMs, this.controller.signal, this.clock, onAbort);
    void job
      .run(signal)
      .catch((error: unknown) => this.log.error({ job: job.id, err: error }, 'Job failed unexpectedly'))
      .finally(end);
    await run.done;
    release();
    cancelAbandon();
  }

  /**
   * Stops scheduling; in-flight runs get `graceMs` to finish, are then aborted, and those that
   * have not ended ABANDON_GRACE_MS later are abandoned. Bounded whatever the jobs do.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    this.stopped = true;
    this.governor.stop();
    this.clock.clearTimeout(this.timer);
    this.ticks.clear();
    this.limit.close();
    await this.settleWithin(options.graceMs ?? 5_000);
    this.controller.abort(new Error('collection stopped'));
    await this.settleWithin(ABANDON_GRACE_MS);
    for (const run of [...this.inFlight.values()]) run.abandon();
  }

  private async settleWithin(ms: number): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: Timer | undefined;
    const elapsed = new Promise<void>((resolve) => (timer = this.clock.setTimeout(resolve, ms)));
    await Promise.race([Promise.all([...this.inFlight.values()].map((run) => run.done)), elapsed]);
    this.clock.clearTimeout(timer);
  }
}

/** The first time at or after `notBeforeMs` that is `phaseMs` past a multiple of the interval. */
export function nextPhaseTime(notBeforeMs: number, intervalMs: number, phaseMs: number): number {
  const cycles = Math.ceil((notBeforeMs - phaseMs) / intervalMs);
  return cycles * intervalMs + phaseMs;
}

/** A stable offset in [0, spreadMs) derived from the job id, so restarts keep the same spread. */
export function jitterMs(id: string, spreadMs: number): number {
  const whole = Math.floor(spreadMs);
  return whole <= 0 ? 0 : stableHash(id) % whole;
}
