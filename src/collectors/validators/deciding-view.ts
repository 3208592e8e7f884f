import type { CollectContext } from '../collector.js';
import { weightByValue } from '../weighted-percentile.js';

/**
 * The share of stake whose view decides a reward. Each validator prefers "reward" only if its own
 * view of the uptime meets the requirement (AvalancheGo vms/platformvm/block/executor/options.go
 * prefersCommit), and Snowman decides over those preferences: on Mainnet a poll samples k = 20
 * validators by stake and moves only with alpha = 15 of them alike. The reward is safe while at
 * least 15/20 = 75 % of the stake prefers it, so the uptime that counts is the one at least 75 % of
 * the stake sees.
 */
export const DECIDING_STAKE_SHARE = 15 / 20;

/** One validator's view of this node's uptime, weighted by its stake. */
export interface StakeView {
  readonly uptimeRatio: number;
  readonly weight: number;
}

/**
 * info.peers' observedUptime is the peer's view truncated to a whole percent (AvalancheGo
 * network/peer/peer.go: uint32(uptime·100)), so the true value lies in [v, v + 1). The midpoint,
 * capped at 100 %, halves the worst error to half a point and keeps every comparison with a
 * whole-percent requirement exact: v ≥ 90 exactly when the true view is ≥ 90 %.
 */
export function observedUptimeRatio(wholePercent: number): number {
  return Math.min(wholePercent + 0.5, 100) / 100;
}

/**
 * The highest uptime that at least `share` of the known stake sees this node at or above; undefined
 * when no stake is known. Stake the node is not connected to is unknown, not 0 %: it is left out.
 */
export function uptimeSeenByShare(views: readonly StakeView[], share: number): number | undefined {
  const total = views.reduce((sum, view) => sum + view.weight, 0);
  if (!(total > 0)) return undefined;
  const ascending = weightByValue(views.map(({ uptimeRatio, weight }) => ({ value: uptimeRatio, weight })));
  let seenAtLeast = 0;
  for (let index = ascending.length - 1; index >= 0; index--) {
    seenAtLeast += ascending[index].weight;
    if (seenAtLeast >= share * total) return ascending[index].value;
  }
  return ascending[0].value;
}

/** Peers' views older than this are not used: the peers collector has stopped answering. */
const PEER_UPTIMES_MAX_AGE_MS = 5 * 60_000;

/**
 * This node's uptime as the deciding share of the connected primary validators sees it: their
 * observedUptime weighted by their stake (platform.getValidatorsAt), as the peers collector sums
 * the stake per whole percent from the run's info.peers, so 1,800 peers make a hundred views at
 * most. The node's own view of itself (always about 100 %) is left out there: with no validator
 * connected there is no view at all, never a reassuring one.
 */
export function uptimeSeenByStakePerPercent(stakeByPercent: ReadonlyMap<number, number>): number | undefined {
  const views: StakeView[] = [];
  for (const [percent, weight] of stakeByPercent) views.push({ uptimeRatio: observedUptimeRatio(percent), weight });
  return uptimeSeenByShare(views, DECIDING_STAKE_SHARE);
}

/**
 * The deciding view as the peers collector of this target last computed it, at most 5 minutes ago.
 * Undefined without fresh peers' views or weights: the budget is then left out, never guessed, and
 * the peers collector's failure is its own alert.
 */
export function decidingUptime(ctx: CollectContext): number | undefined {
  const view = ctx.facts.decidingUptime;
  const ageMs = view ? ctx.nowMs - view.atMs : Number.POSITIVE_INFINITY;
  if (!view || ageMs < 0 || ageMs > PEER_UPTIMES_MAX_AGE_MS) return undefined;
  return view.ratio;
}
