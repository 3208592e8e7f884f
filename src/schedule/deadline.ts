import { followAbort, unfollowAbort, type AbortFollower } from './abort-followers.js';
import { monotonicMs, systemClock, type Clock, type Timer } from './clock.js';

/** A signal for one piece of work, and the release to call when the work ends. */
export interface Deadline {
  readonly signal: AbortSignal;
  release(): void;
}

/** A timer this late says the daemon's own event loop was stalled, not that the work was slow. */
const STALL_MS = 50;

/** What a PatientTimer calls when it expires, told how long was added for stalls. */
export interface Expiring {
  expire(stalledMs: number): void;
}

/**
 * Expires once `ms` of the daemon's attention have passed, not `ms` of the wall clock: when the
 * timer fires late, the event loop was stalled (a CPU-throttled container, a pegged core, a long
 * GC) and an answer that arrived meanwhile is still unread, so expiring now would blame a healthy
 * node for avaxmon's own stall. The wait is then lengthened by the stall, by `ms` at most in all, so
 * work that truly hangs still expires within twice its time. A class with one callback, not a
 * closure per step: every upstream request has one.
 */
export class PatientTimer {
  private stalledMs = 0;
  private dueMs = 0;
  private timer?: Timer;
  private readonly fire = () => this.fired();

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly onExpire: Expiring,
  ) {
    this.arm(ms);
  }

  cancel(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  // Lateness on the monotonic clock: a wall step is not a stall.
  private arm(waitMs: number): void {
    this.dueMs = monotonicMs(this.clock) + waitMs;
    this.timer = this.clock.setTimeout(this.fire, waitMs);
    // Like AbortSignal.timeout's, the timer alone keeps no process alive.
    this.timer.unref();
  }

  private fired(): void {
    this.timer = undefined;
    const lateMs = monotonicMs(this.clock) - this.dueMs;
    const grantMs = Math.min(lateMs, this.ms - this.stalledMs);
    if (lateMs < STALL_MS || grantMs <= 0) {
      this.onExpire.expire(this.stalledMs);
      return;
    }
    this.stalledMs += grantMs;
    this.arm(grantMs);
  }
}

/** patientTimeout's words for its expiry: the TimeoutError every deadline aborts with. */
export function timeoutError(ms: number, stalledMs: number): DOMException {
  const stall = stalledMs > 0 ? ` (and ${Math.round(stalledMs)}ms more while avaxmon's event loop was stalled)` : '';
  return new DOMException(`timed out after ${ms}ms${stall}`, 'TimeoutError');
}

/** Calls `expire` as a PatientTimer would; returns what cancels it. */
export function patientTimeout(clock: Clock, ms: number, expire: (stalledMs: number) => void): () => void {
  const timer = new PatientTimer(clock, ms, { expire });
  return () => timer.cancel();
}

/** When each live deadline's signal falls due, on its clock's monotonic time: see deadline. */
const dueOf = new WeakMap<AbortSignal, { readonly clock: Clock; readonly dueMs: number }>();

/**
 * Aborts when `parent` does or after `ms` (of the daemon's attention: see PatientTimer), with the
 * same TimeoutError as AbortSignal.timeout.
 *
 * AbortSignal.any with AbortSignal.timeout leaves each signal's timer running to its end and a weak
 * reference in the long-lived parent: at a thousand requests a second, tens of thousands of timers,
 * signals and weak refs stay alive. Here release() clears the timer and the link at once. A parent
 * that is itself a deadline falling due no later gives its own signal: a run's deadline inside the
 * scheduler's, of the same interval, costs nothing. `onAbort` is called once the signal aborts, for
 * either cause, without a listener of its own on it.
 */
export function deadline(ms: number, parent?: AbortSignal, clock: Clock = systemClock, onAbort?: () => void): Deadline {
  const enclosing = parent && !onAbort && dueOf.get(parent);
  if (enclosing && enclosing.clock === clock && enclosing.dueMs <= monotonicMs(clock) + ms) return { signal: parent, release: noop };
  const link = new DeadlineLink(ms, parent, clock, onAbort);
  dueOf.set(link.signal, { clock, dueMs: monotonicMs(clock) + ms });
  return link;
}

function noop(): void {}

class DeadlineLink implements Deadline, Expiring, AbortFollower {
  private readonly controller = new AbortController();
  private readonly timer: PatientTimer;

  constructor(
    private readonly ms: number,
    private readonly parent: AbortSignal | undefined,
    clock: Clock,
    private readonly onAbort: (() => void) | undefined,
  ) {
    this.timer = new PatientTimer(clock, ms, this);
    if (parent?.aborted) this.parentAborted(parent.reason);
    else if (parent) followAbort(parent, this);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  expire(stalledMs: number): void {
    this.abort(timeoutError(this.ms, stalledMs));
  }

  parentAborted(reason: unknown): void {
    this.abort(reason);
  }

  private abort(reason: unknown): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(reason);
    this.onAbort?.();
  }

  // A property, not a method: callers take it apart from the deadline.
  readonly release = (): void => {
    this.timer.cancel();
    if (this.parent) unfollowAbort(this.parent, this);
  };
}
