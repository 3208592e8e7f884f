/**
 * V8's own last-resort collection, when --expose-gc is on (src/runtime/process-settings.ts sets it):
 * unlike a plain gc(), it compacts the whole old generation, shrinks the young generation and
 * returns pooled pages. For the two moments that leave V8's heap far larger than what is live: an
 * attack's refused bodies (clients/response-memory.ts) and a collection's first round
 * (daemon/daemon.ts). Undefined without --expose-gc: the memory then goes back as V8 decides.
 */
export function lastResortCollection(): (() => void) | undefined {
  const gc = (globalThis as { gc?: (options?: object) => void }).gc;
  return gc && (() => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }));
}
