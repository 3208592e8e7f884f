import { setFlagsFromString } from 'node:v8';
import type { Logger } from 'pino';
import { every, systemClock, type Clock } from '../schedule/clock.js';
import { loopUtilization } from './loop-utilization.js';

/**
 * How far V8's old generation may grow past what its last full collection left, in percent, while
 * the core is busy: fewer full collections, for memory. The process starts with it (NODE_FLAGS).
 */
export const BUSY_HEAP_GROWTH_PERCENT = 40;
/**
 * The same while the core has room: more full collections, for less memory. At 1,000 nodes on
 * this project's machine (event loop 41 % busy) it took RSS from 257 to 239 MB for 0.005 core
 * more; at 40 % a 2,000-node fleet, whose loop is saturated, kept up where 30 % left 690
 * collectors lagging (docs/decisions.md#v8s-old-generation-grown-by-25--while-the-core-has-room-40--while-it-is-busy).
 */
export const RELAXED_HEAP_GROWTH_PERCENT = 25;
/** The loop's smoothed utilization at which the busy growth comes back. */
export const BUSY_UTILIZATION = 0.6;
/** The smoothed utilization below which the relaxed growth applies; the gap keeps it from flapping. */
export const RELAXED_UTILIZATION = 0.5;
/** How often the loop's utilization is read. */
export const HEAP_GROWTH_PERIOD_MS = 1_000;
/**
 * Each second's reading moves the smoothed utilization this far towards it: about a minute's
 * memory. A 2,000-node daemon's loop, 75 % busy on average, spent ten-second stretches below 50 %:
 * with ten seconds' memory its growth flapped six times in three minutes.
 */
const SMOOTHING = 1 / 60;

export interface HeapGrowthOptions {
  readonly clock?: Clock;
  /** The event loop's utilization since the last call, 0 to 1. */
  readonly utilization?: () => number;
  /** Sets the growth; V8's flag by default, which it reads at each full collection. */
  readonly apply?: (percent: number) => void;
  /** Each change is logged at debug level. */
  readonly log?: Pick<Logger, 'debug'>;
}

/**
 * Chooses the old generation's growth from how busy the event loop has been: the memory a larger
 * heap holds buys fewer full collections, which only a busy core needs.
 */
export class HeapGrowth {
  private percent = BUSY_HEAP_GROWTH_PERCENT;
  /** Starts at the busy threshold: an idle daemon relaxes after about ten seconds, a loaded one after a minute or two. */
  private smoothed = BUSY_UTILIZATION;
  private stopTimer?: () => void;
  private readonly clock: Clock;
  private readonly utilization: () => number;
  private readonly apply: (percent: number) => void;

  constructor(private readonly options: HeapGrowthOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.utilization = options.utilization ?? loopUtilization();
    this.apply = options.apply ?? ((percent) => setFlagsFromString(`--heap-growing-percent=${percent}`));
  }

  /** The growth in force now, in percent. */
  get current(): number {
    return this.percent;
  }

  start(): void {
    this.stopTimer = every(this.clock, HEAP_GROWTH_PERIOD_MS, () => this.adjust(this.utilization()));
  }

  stop(): void {
    this.stopTimer?.();
  }

  private adjust(utilization: number): void {
    this.smoothed += SMOOTHING * (utilization - this.smoothed);
    const next =
      this.smoothed >= BUSY_UTILIZATION
        ? BUSY_HEAP_GROWTH_PERCENT
        : this.smoothed <= RELAXED_UTILIZATION
          ? RELAXED_HEAP_GROWTH_PERCENT
          : this.percent;
    if (next === this.percent) return;
    this.percent = next;
    this.apply(next);
    this.options.log?.debug({ percent: next, loopUtilization: Number(this.smoothed.toFixed(2)) }, "V8's old generation growth changed");
  }
}
