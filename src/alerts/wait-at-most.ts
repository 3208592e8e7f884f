import type { Clock, Timer } from '../schedule/clock.js';

/** Waits for `promise` at most `ms` on the clock; what it does after that no longer holds anyone up. Never rejects. */
export async function waitAtMost(clock: Clock, promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: Timer | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, ms)))]);
  clock.clearTimeout(timer);
}
