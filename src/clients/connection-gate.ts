export interface ConnectionGateOptions {
  /** Requests sent at once without waiting: what a fast node's runs need. */
  readonly warm: number;
  /** Requests sent at once at most, once some have waited `spillAfterMs`: what a slow node's round needs. */
  readonly max: number;
  readonly spillAfterMs: number;
}

interface Waiter {
  readonly start: () => void;
  timer?: NodeJS.Timeout;
}

/**
 * Lets at most `max` requests to one origin be on the wire at once; the others wait here, in FIFO
 * order, instead of in the dispatcher's queue. A request's deadline starts only once it is let
 * through, so the node is timed on its own answer, not on avaxmon's queue behind its other calls;
 * the wait is avaxmon's own lateness, and is reported apart.
 *
 * Past `warm` at once, a request waits `spillAfterMs` for one of them to finish before it takes
 * another: a fast node answers a run's burst of parallel calls on a connection or two (each open
 * connection costs memory a fleet multiplies), a slow one gets a connection per call of its round.
 */
export class ConnectionGate {
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly options: ConnectionGateOptions) {}

  /**
   * Takes a slot at once if one is free without waiting: most requests, which then cost no promise
   * nor closure here. The caller calls release() once it is done.
   */
  tryAcquire(): boolean {
    if (this.inFlight >= this.options.warm) return false;
    this.inFlight += 1;
    return true;
  }

  /**
   * Resolves once the request may be sent, with how long it waited (monotonic ms), holding a slot
   * the caller gives back with release(); rejects with the signal's reason if it aborts first (the
   * run's deadline or a stop).
   */
  acquire(signal?: AbortSignal): Promise<number> {
    const startedMs = performance.now();
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.tryAcquire()) return Promise.resolve(0);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(performance.now() - startedMs);
        },
      };
      const onAbort = () => {
        this.remove(waiter);
        reject(signal!.reason);
      };
      // The spill waits for the loop's pending answers first: see spill.
      waiter.timer = setTimeout(() => setImmediate(() => this.spill(waiter)), this.options.spillAfterMs);
      waiter.timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Gives a slot back: it passes straight to the next waiter, FIFO. Once per slot taken. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.inFlight -= 1;
  }

  /** Requests waiting to be sent now. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * A waiter that waited long enough takes a connection of its own, if one is left. Called after
   * the poll phase of the loop that ran its timer: on a busy daemon the timer fires late, when a
   * warm connection's answer may be in, unread, and would pass its slot on; opening a connection
   * then was avaxmon's own lateness, and every spilled connection closes again 2 s later: at 2,000
   * nodes on a pegged core, 1.4 % of the daemon's time was connecting.
   */
  private spill(waiter: Waiter): void {
    if (this.inFlight >= this.options.max || !this.remove(waiter)) return;
    this.inFlight += 1;
    waiter.start();
  }

  private remove(waiter: Waiter): boolean {
    const index = this.waiting.indexOf(waiter);
    if (index === -1) return false;
    this.waiting.splice(index, 1);
    clearTimeout(waiter.timer);
    return true;
  }
}
