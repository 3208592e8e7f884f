import type { CollectContext } from './collector.js';

/** How long a slow fact is reused: statuses, supply, fees and versions change over minutes or on upgrades. */
export const SLOW_FACT_MAX_AGE_MS = 5 * 60_000;

interface Remembered {
  readonly atMs: number;
  readonly value: unknown;
}

/**
 * A fact that changes over minutes or on upgrades (a chain's status, the supply, the X-Chain's fees,
 * the Helicon time, the node's version), asked by a collector that runs every 15 s or every minute
 * for other reasons: fetched again only once older than SLOW_FACT_MAX_AGE_MS, so the node is not
 * asked for it on every run. A failed fetch is not remembered.
 */
export async function slowFact<T>(ctx: CollectContext, key: string, fetch: () => Promise<T>): Promise<T> {
  const remembered = ctx.memory.get(`slow-fact:${key}`) as Remembered | undefined;
  const ageMs = remembered ? ctx.nowMs - remembered.atMs : Number.POSITIVE_INFINITY;
  // A clock stepped back makes the memo's age negative: it is fetched again, as an old one is.
  if (remembered && ageMs >= 0 && ageMs < SLOW_FACT_MAX_AGE_MS) return remembered.value as T;
  const value = await fetch();
  ctx.memory.set(`slow-fact:${key}`, { atMs: ctx.nowMs, value } satisfies Remembered);
  return value;
}
