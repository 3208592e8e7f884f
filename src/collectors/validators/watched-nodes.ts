import { FieldReader } from '../../clients/parse.js';
import type { CollectContext } from '../collector.js';

/**
 * The node ids a collector watches, with `self` resolved to this node's id. The id is learned
 * once (node_info or here) and kept in the target's facts, so a sidecar asks for it once.
 */
export async function resolveNodeIds(ctx: CollectContext, ids: readonly string[]): Promise<string[]> {
  const resolved = new Set<string>();
  for (const id of ids) resolved.add(id === 'self' ? await selfNodeId(ctx) : id);
  return [...resolved];
}

async function selfNodeId(ctx: CollectContext): Promise<string> {
  if (ctx.facts.nodeId) return ctx.facts.nodeId;
  const read = new FieldReader(ctx.target.name, 'info.getNodeID');
  const reply = read.object(await ctx.node.call('/ext/info', 'info.getNodeID', {}, ctx.signal), 'result');
  ctx.facts.nodeId = read.string(reply.nodeID, 'nodeID');
  return ctx.facts.nodeId;
}
