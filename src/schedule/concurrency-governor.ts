import { performance } from 'node:perf_hooks';
import { every, systemClock, type Clock } from './clock.js';

/** How often the event loop's utilization is read and the cap adjusted. */
export const GOVERN_PERIOD_MS = 1_000;
/** A second at least this busy is saturated: the cap narrows. */
export const SATURATED_UTILIZATION = 0.9;
/** A second at most this busy leaves room: the cap widens again. */
export const RELAXED_UTILIZATION = 0.75;
/** The cap never narrows below this (or the configured cap, when lower). */
export const MIN_GOVERNED_CAP = 32;
/** A saturated second keeps this share of the cap. */
const NARROWING = 0.75;
/** A relaxed second widens the cap by this share of the configured cap: back from the floor in about half a minute. */
const WIDENING = 1 / 32;
/** Until the first second that is not relaxed, a relaxed second multiplies the cap by this (slow start). */
const SLOW_START_GROWTH = 2;

/** What the governor adjusts: the scheduler's overall concurrency cap. */
export interface AdjustableCap {
  setMax(max: number): void;
}

export interface GovernorOptions {
  readonly clock?: Clock;
  /** The event loop's utilization since the last call, 0 to 1; performance.eventLoopUtilization by default. */
  readonly utilization?: () => number;
}

/**
 * Narrows the overall collection cap while the event loop is saturated, and widens it back towards
 * `global.max_concurrent_collections` as the loop frees up (additive increase, multiplicative
 * decrease). On a saturated core, more runs in flight add no throughput: they interleave, each
 * lasts longer, and what each holds survives young-generation collections, is promoted, and costs
 * full collections: at 2,000 nodes on one core, 256 runs in flight took 0.74-0.81 cores with
 * 14-15 % of the time in GC pauses and left collectors lagging, 64 took 0.63 cores and 8 % and
 * kept up (docs/performance.md). Where runs wait on the network instead (distant nodes), the loop is not
 * saturated and the configured cap stands.
 *
 * The cap starts at its floor and doubles each relaxed second until the first second that is not
 * (slow start, as TCP's): a daemon's first round is every job at once, and a large fleet's bodies,
 * 256 in flight on a saturated core, set the high-water mark of glibc's heap and V8's for the life
 * of the process (docs/decisions.md#the-collection-cap-starts-low-and-doubles-while-the-loop-has-room).
 * Where runs wait on distant nodes and the loop has room, the cap is the configured one 3 s after start.
 */
export class ConcurrencyGovernor {
  private cap: number;
  private readonly floor: number;
  private slowStart = true;
  private stopTimer?: () => void;
  private readonly clock: Clock;
  private readonly utilization: () => number;

  constructor(
    private readonly target: AdjustableCap,
    private readonly ceiling: number,
    options: GovernorOptions = {},
  ) {
    this.cap = ceiling;
    this.floor = Math.min(ceiling, MIN_GOVERNED_CAP);
    this.clock = options.clock ?? systemClock;
    this.utilization = options.utilization ?? loopUtilization();
  }

  /** The cap in force now. */
  get current(): number {
    return this.cap;
  }

  /** Narrows the cap to its floor, from where it doubles while the loop has room. */
  start(): void {
    if (!Number.isFinite(this.ceiling)) return;
    this.set(this.floor);
    this.stopTimer = every(this.clock, GOVERN_PERIOD_MS, () => this.adjust(this.utilization()));
  }

  stop(): void {
    this.stopTimer?.();
  }

  /** One step of the control law, after a period `utilization` busy. */
  private adjust(utilization: number): void {
    const relaxed = utilization <= RELAXED_UTILIZATION;
    this.slowStart &&= relaxed;
    if (utilization >= SATURATED_UTILIZATION) this.set(Math.max(this.floor, Math.floor(this.cap * NARROWING)));
    else if (this.slowStart) this.set(Math.min(this.ceiling, this.cap * SLOW_START_GROWTH));
    else if (relaxed) this.set(Math.min(this.ceiling, this.cap + Math.ceil(this.ceiling * WIDENING)));
  }

  private set(cap: number): void {
    if (cap === this.cap) return;
    this.cap = cap;
    this.target.setMax(cap);
  }
}

/** The event loop's utilization (0 to 1) between two calls of the returned function, from Node's own accounting. */
function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const since = performance.eventLoopUtilization(last);
    last = performance.eventLoopUtilization();
    return since.utilization;
  };
}
