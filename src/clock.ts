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
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): Timer;
  clearTimeout(timer: Timer | undefined): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
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
