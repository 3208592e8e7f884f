/** A pending timer; Node's Timeout is one. */
export interface Timer {
  /** Lets the process exit while the timer is pending. */
  unref(): unknown;
}

/**
 * Where time-driven code reads the time and sets its timers. Code that waits takes one, so its tests
 * can advance time by hand instead of sleeping; production passes systemClock.
 */
export interface Clock {
  /** Milliseconds since the epoch, like Date.now(): the wall clock, which NTP or a resumed VM may step. */
  now(): number;
  /**
   * Milliseconds on a clock that never steps (performance.now()), for durations. A clock without
   * one (a test's manual clock) measures durations on now().
   */
  monotonicMs?(): number;
  setTimeout(callback: () => void, delayMs: number): Timer;
  clearTimeout(timer: Timer | undefined): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};

/** Resolves after `delayMs` on `clock`. */
export function sleep(clock: Clock, delayMs: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, delayMs));
}

/**
 * Calls `callback` every `intervalMs` on `clock`, like an unref'd setInterval: a background task that
 * never keeps the process alive. Returns what stops it.
 */
export function every(clock: Clock, intervalMs: number, callback: () => void): () => void {
  let timer: Timer;
  const arm = () => {
    timer = clock.setTimeout(() => {
      arm();
      callback();
    }, intervalMs);
    timer.unref();
  };
  arm();
  return () => clock.clearTimeout(timer);
}

/**
 * Wall-clock-like milliseconds that never step: the wall time when first read, moved on by the
 * monotonic clock since. Durations (a rule's `for`, flap windows, the age of stale facts, the
 * scheduler's ticks) are measured on it, so a step of the wall clock either way (NTP after a VM
 * resumes, a bad RTC) neither fires nor delays anything; it reads as wall time, so it still compares
 * with times saved by an earlier process. wallOffsetMs() is how far the wall clock has stepped since.
 */
/** Smaller differences between the wall and the steady clock are jitter, not a step. */
const MIN_STEP_MS = 1_000;

export class SteadyClock {
  private readonly anchorWallMs: number;
  private readonly anchorMonotonicMs: number;

  constructor(private readonly clock: Clock = systemClock) {
    this.anchorWallMs = clock.now();
    this.anchorMonotonicMs = this.monotonic();
  }

  now(): number {
    return this.anchorWallMs + (this.monotonic() - this.anchorMonotonicMs);
  }

  /** A Clock that reads this steady time, with the wrapped clock's timers: for code that times intervals. */
  asClock(): Clock {
    return {
      now: () => this.now(),
      monotonicMs: () => this.monotonic(),
      setTimeout: (callback, delayMs) => this.clock.setTimeout(callback, delayMs),
      clearTimeout: (timer) => this.clock.clearTimeout(timer),
    };
  }

  /** The wall clock minus this one: add it to a steady time to show it as wall time. */
  wallOffsetMs(): number {
    // Date.now() and performance.now() read a millisecond apart now and then; that jitter is no
    // step, and must not move what rules compare (an evaluation at a whole minute stays one).
    const offsetMs = this.clock.now() - this.now();
    return Math.abs(offsetMs) < MIN_STEP_MS ? 0 : Math.round(offsetMs);
  }

  private monotonic(): number {
    return monotonicMs(this.clock);
  }
}

/** The clock's monotonic time, its wall time if it has none (a test's hand-moved clock). */
export function monotonicMs(clock: Clock): number {
  return clock.monotonicMs?.() ?? clock.now();
}
