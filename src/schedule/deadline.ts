import { systemClock, type Clock, type Timer } from './clock.js';

/** A signal for one piece of work, and the release to call when the work ends. */
export interface Deadline {
  readonly signal: AbortSignal;
  release(): void;
}

/** A timer this late says the daemon's own event loop was stalled, not that the work was slow. */
const STALL_MS = 50;

/**
 * Calls `expire` once `ms` of the daemon's attention have passed, not `ms` of the wall clock: when
 * the timer fires late, the event loop was stalled (a CPU-throttled container, a pegged core, a long
 * GC) and an answer that arrived meanwhile is still unread, so expiring now would blame a healthy
 * node for avaxmon's own stall. The wait is then lengthened by the stall, by `ms` at most in all, so
 * work that truly hangs still expires within twice its time. `expire` learns how long was added.
 * Returns what cancels it.
 */
export function patientTimeout(clock: Clock, ms: number, expire: (stalledMs: number) => void): () => void {
  let stalledMs = 0;
  let timer: Timer;
  // Lateness on the monotonic clock: a wall step is not a stall.
  const now = () => clock.monotonicMs?.() ?? clock.now();
  const arm = (waitMs: number) => {
    const dueMs = now() + waitMs;
    timer = clock.setTimeout(() => fire(now() - dueMs), waitMs);
    // Like AbortSignal.timeout's, the timer alone keeps no process alive.
    timer.unref();
  };
  const fire = (lateMs: number) => {
    const grantMs = Math.min(lateMs, ms - stalledMs);
    if (lateMs < STALL_MS || grantMs <= 0) return expire(stalledMs);
    stalledMs += grantMs;
    arm(grantMs);
  };
  arm(ms);
  return () => clock.clearTimeout(timer);
}

/**
 * Aborts when `parent` does or after `ms` (of the daemon's attention: see patientTimeout), with the
 * same TimeoutError as AbortSignal.timeout.
 *
 * AbortSignal.any with AbortSignal.timeout leaves each signal's timer running to its end and a weak
 * reference in the long-lived parent: at a thousand requests a second, tens of thousands of timers,
 * signals and weak refs stay alive. Here release() clears the timer and the listener at once.
 */
export function deadline(ms: number, parent?: AbortSignal, clock: Clock = systemClock): Deadline {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  const cancel = patientTimeout(clock, ms, (stalledMs) => {
    const stall = stalledMs > 0 ? ` (and ${Math.round(stalledMs)}ms more while avaxmon's event loop was stalled)` : '';
    controller.abort(new DOMException(`timed out after ${ms}ms${stall}`, 'TimeoutError'));
  });
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    release() {
      cancel();
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
