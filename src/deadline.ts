/** A signal for one piece of work, and the release to call when the work ends. */
export interface Deadline {
  readonly signal: AbortSignal;
  release(): void;
}

/**
 * Aborts when `parent` does or after `ms`, with the same TimeoutError as AbortSignal.timeout.
 * AbortSignal.any with AbortSignal.timeout leaves each signal's timer running to its end and a weak
 * reference in the long-lived parent: at a thousand requests a second, tens of thousands of timers,
 * signals and weak refs stay alive. Here release() clears the timer and the listener at once.
 */
export function deadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  // Like AbortSignal.timeout's, the timer alone keeps no process alive.
  timer.unref();
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
