import { UpstreamError } from '../../errors.js';
import type { CollectContext } from '../collector.js';

/**
 * An /ext/info call the validators collector can do without: undefined when the node refuses it
 * (its info API disabled, a central target), logged once per target with what is lost; any other
 * error still fails the run.
 */
export async function infoCallUnlessUnavailable(ctx: CollectContext, method: string, consequence: string): Promise<unknown> {
  const key = `validators:${method}`;
  try {
    const answer = await ctx.node.call('/ext/info', method, {}, ctx.signal);
    ctx.facts.unavailableMethods.delete(key);
    return answer;
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.outcome !== 'unavailable') throw error;
    if (!ctx.facts.unavailableMethods.has(key)) {
      ctx.facts.unavailableMethods.add(key);
      ctx.log.warn({ method, err: error }, consequence);
    }
    return undefined;
  }
}
