import { FieldReader } from '../../clients/parse.js';
import { UpstreamError } from '../../errors.js';
import type { CollectContext } from '../collector.js';

/** info.uptime's answer; undefined when the node is not a primary network validator. */
export interface NodeUptime {
  /** Stake-weighted average of the uptime the other validators see for this node. */
  readonly weightedAverageRatio: number;
  /** Share of stake that sees this node at or above the uptime requirement: it would vote to reward. */
  readonly rewardingStakeRatio: number;
}

/**
 * How the other validators see this node (info.uptime): what decides its reward. A node outside
 * the primary set answers -32000 "couldn't get node uptime: node is not a validator", which is a
 * fact about the node, not a failure.
 */
export async function nodeUptime(ctx: CollectContext): Promise<NodeUptime | undefined> {
  const read = new FieldReader(ctx.target.name, 'info.uptime');
  let answer: unknown;
  try {
    answer = await ctx.node.call('/ext/info', 'info.uptime', {}, ctx.signal);
  } catch (error) {
    if (isNotValidator(error)) return undefined;
    throw error;
  }
  const result = read.object(answer, 'result');
  return {
    weightedAverageRatio: read.percentRatio(result.weightedAveragePercentage, 'weightedAveragePercentage'),
    rewardingStakeRatio: read.percentRatio(result.rewardingStakePercentage, 'rewardingStakePercentage'),
  };
}

function isNotValidator(error: unknown): boolean {
  return error instanceof UpstreamError && error.rpcCode === -32000 && /not a validator/i.test(error.message);
}

const UPGRADES_UNAVAILABLE = 'validators:info.upgrades';

/**
 * The network's Helicon activation (info.upgrades heliconTime); undefined on a node that predates
 * it. A node with its info API disabled (a central target watching explicit node ids) cannot say:
 * then every validation is held to the stricter post-Helicon rule (-Infinity), logged once, so an
 * unknown never reads as "all is well".
 */
export async function heliconSeconds(ctx: CollectContext): Promise<number | undefined> {
  const read = new FieldReader(ctx.target.name, 'info.upgrades');
  let answer: unknown;
  try {
    answer = await ctx.node.call('/ext/info', 'info.upgrades', {}, ctx.signal);
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.outcome !== 'unavailable') throw error;
    if (!ctx.facts.unavailableMethods.has(UPGRADES_UNAVAILABLE)) {
      ctx.facts.unavailableMethods.add(UPGRADES_UNAVAILABLE);
      ctx.log.warn(
        { method: 'info.upgrades', err: error },
        'No heliconTime from the node; every validation is held to the post-Helicon uptime requirement',
      );
    }
    return Number.NEGATIVE_INFINITY;
  }
  ctx.facts.unavailableMethods.delete(UPGRADES_UNAVAILABLE);
  const upgrades = read.object(answer, 'result');
  return upgrades.heliconTime === undefined ? undefined : read.timestampSeconds(upgrades.heliconTime, 'heliconTime');
}
