import { UpstreamError } from '../errors.js';
import type { CollectContext } from './collector.js';
import type { SampleSet } from './collector.js';

/**
 * Calls a node-specific method that operators may disable (info.getNodeID, info.getVMs, ...).
 * A refusal is reported once in the log and as avaxmon_node_api_available 0, not as a failure
 * on every run.
 */
export async function callOptional<T>(
  ctx: CollectContext,
  out: SampleSet,
  path: string,
  method: string,
  params: unknown = {},
): Promise<T | undefined> {
  try {
    const result = await ctx.node.call<T>(path, method, params, ctx.signal);
    if (ctx.facts.unavailableMethods.delete(method)) ctx.log.info({ method }, 'Node method is available again');
    out.add('avaxmon_node_api_available', { method }, 1);
    return result;
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.outcome !== 'unavailable') throw error;
    if (!ctx.facts.unavailableMethods.has(method)) {
      ctx.facts.unavailableMethods.add(method);
      ctx.log.warn({ method, err: error }, 'Node method is unavailable; reporting it once and skipping it');
    }
    out.add('avaxmon_node_api_available', { method }, 0);
    return undefined;
  }
}
