import { FieldReader } from '../../clients/parse.js';
import type { CollectContext } from '../collector.js';
import { validatorWeights } from '../validator-weights.js';
import { infoCallUnlessUnavailable } from './info-call.js';

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
  const descending = [...views].sort((a, b) => b.uptimeRatio - a.uptimeRatio);
  let seenAtLeast = 0;
  for (const view of descending) {
    seenAtLeast += view.weight;
    if (seenAtLeast >= share * total) return view.uptimeRatio;
  }
  return descending[descending.length - 1].uptimeRatio;
}

/**
 * This node's uptime as the deciding share of the connected primary validators sees it: their
 * observedUptime (info.peers), weighted by their stake (platform.getValidatorsAt). The node's own
 * view of itself (always about 100 %) is left out: with no validator connected there is no view at
 * all, never a reassuring one. Undefined when either call is unavailable (logged once).
 */
export async function decidingUptime(ctx: CollectContext): Promise<number | undefined> {
  const [views, weights] = await Promise.all([peerViews(ctx), validatorWeights(ctx)]);
  if (!views || !weights) return undefined;
  const weighted = views.flatMap(({ nodeId, uptimeRatio }) => {
    const weight = nodeId === ctx.facts.nodeId ? undefined : weights.get(nodeId);
    return weight ? [{ uptimeRatio, weight }] : [];
  });
  return uptimeSeenByShare(weighted, DECIDING_STAKE_SHARE);
}

async function peerViews(ctx: CollectContext): Promise<Array<{ nodeId: string; uptimeRatio: number }> | undefined> {
  const read = new FieldReader(ctx.target.name, 'info.peers');
  const answer = await infoCallUnlessUnavailable(ctx, 'info.peers', "No peers' views of this node; its network uptime and downtime budget are left out");
  if (answer === undefined) return undefined;
  const result = read.object(answer, 'result');
  return read.array(result.peers ?? [], 'peers').flatMap((value, index) => {
    const peer = read.object(value, `peers[${index}]`);
    const observed = read.optional(peer.observedUptime, `peers[${index}].observedUptime`, read.number);
    return observed === undefined ? [] : [{ nodeId: read.string(peer.nodeID, `peers[${index}].nodeID`), uptimeRatio: observedUptimeRatio(observed) }];
  });
}
