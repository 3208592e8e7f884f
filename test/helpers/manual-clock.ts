import type { Clock, Timer } from '../../src/schedule/clock.js';

interface PendingTimer extends Timer {
  readonly dueMs: number;
  readonly order: number;
  readonly callback: () => void;
}

/** Lets every promise continuation queued so far run (microtasks drain before the next macrotask). */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when a test advances it: timers fire in due order (ties in the order they
 * were set), with every promise continuation run after each, so tests assert exact times and never sleep.
 */
export class ManualClock implements Clock {
  private nowMs: number;
  private timers: PendingTimer[] = [];
  private order = 0;

  /**
   * Starts at the next whole minute of real time: a multiple of every interval tests use, so phases
   * count from it, and close to what parts still on the system clock (the simulator, file mtimes) read.
   */
  constructor(startMs = Math.ceil(Date.now() / 60_000) * 60_000) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimeout(callback: () => void, delayMs: number): Timer {
    const timer: PendingTimer = { dueMs: this.nowMs + Math.max(0, delayMs), order: this.order++, callback, unref: () => timer };
    this.timers.push(timer);
    return timer;
  }

  clearTimeout(timer: Timer | undefined): void {
    this.timers = this.timers.filter((pending) => pending !== timer);
  }

  /** When the earliest pending timer is due; undefined when none is pending. */
  nextDueMs(): number | undefined {
    return this.earliest()?.dueMs;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const untilMs = this.nowMs + ms;
    await settle();
    for (let next = this.earliest(); next && next.dueMs <= untilMs; next = this.earliest()) await this.fire(next);
    this.nowMs = untilMs;
    await settle();
  }

  /**
   * Fires timers in order until `promise` settles, for a bounded wait such as a stop: time runs as
   * fast as the timers allow. With no timer left, it waits for real work (a request, a file) to end it.
   */
  async runUntil<T>(promise: Promise<T>, realTimeoutMs = 60_000): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => (settled = true));
    watched.catch(() => undefined); // the caller sees the rejection when it awaits the result
    const deadline = Date.now() + realTimeoutMs;
    await settle();
    while (!settled) {
      if (Date.now() > deadline) throw new Error(`still pending after ${realTimeoutMs} ms of real time`);
      const next = this.earliest();
      if (next) await this.fire(next);
      else await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return watched;
  }

  private earliest(): PendingTimer | undefined {
    let earliest: PendingTimer | undefined;
    for (const timer of this.timers)
      if (!earliest || timer.dueMs < earliest.dueMs || (timer.dueMs === earliest.dueMs && timer.order < earliest.order)) earliest = timer;
    return earliest;
  }

  private async fire(timer: PendingTimer): Promise<void> {
    this.clearTimeout(timer);
    this.nowMs = Math.max(this.nowMs, timer.dueMs);
    timer.callback();
    await settle();
  }
}
