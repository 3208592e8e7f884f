import { performance } from 'node:perf_hooks';

/**
 * How long the event loop may stay busy before work given to inTurn() waits for the loop's next
 * turn.
 */
export const TURN_BUDGET_MS = 10;

/** Work waiting for a later turn, first come first run: one queue, as the process has one event loop. */
const waiting: Array<() => void> = [];
let draining = false;
/** When the current turn started; undefined between turns. */
let turnStartedMs: number | undefined;

/**
 * Runs `work` now while the loop's current turn has been busy less than TURN_BUDGET_MS; otherwise
 * in a later turn, after the loop has polled its sockets. CPU work that arrives in bursts (a hundred
 * large answers completing together at 1,000 nodes) takes its turn here, so a scrape or an API
 * request that arrives meanwhile is answered within about a turn, not after the whole burst: such
 * bursts held the loop for up to a second, and gzip scrapes waited up to 705 ms.
 */
export function inTurn<T>(work: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const run = () => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    };
    if (waiting.length === 0 && turnElapsedMs() < TURN_BUDGET_MS) return run();
    waiting.push(run);
    if (!draining) drainSoon();
  });
}

/**
 * How long the current turn has been busy. A turn starts with the first look after the last one
 * ended, and ends in the loop's next check phase: the setImmediate queued as it starts runs before
 * any drain queued after it.
 */
function turnElapsedMs(): number {
  const nowMs = performance.now();
  if (turnStartedMs === undefined) {
    turnStartedMs = nowMs;
    setImmediate(endTurn);
  }
  return nowMs - turnStartedMs;
}

function endTurn(): void {
  turnStartedMs = undefined;
}

function drainSoon(): void {
  draining = true;
  setImmediate(drain);
}

/** Runs waiting work in a turn of its own, at least one piece, the rest in the turns after. */
function drain(): void {
  turnElapsedMs(); // starts this turn, which its first piece counts against
  do waiting.shift()!();
  while (waiting.length > 0 && turnElapsedMs() < TURN_BUDGET_MS);
  if (waiting.length > 0) drainSoon();
  else draining = false;
}
