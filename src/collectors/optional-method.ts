import { UpstreamError } from '../errors.js';
import type { CollectContext, SampleSet } from './collector.js';

/** A method that may be missing on a node or chain, and the 0/1 gauge that says whether it answers. */
export interface OptionalMethod {
  /** Unique among the target's optional methods, e.g. `info.getVMs` or `C:eth_feeConfig`. */
  readonly key: string;
  /** The method's name, for the log. */
  readonly method: string;
  readonly gauge: string;
  /** The gauge's labels, e.g. the chain; logged with the method. */
  readonly labels: Readonly<Record<string, string>>;
  /** Missing by design (the C-Chain has no subnet-EVM eth_feeConfig): said at debug level only. */
  readonly normallyAbsent?: boolean;
}

/** A node-specific API method, reported as avaxmon_node_api_available{method}. */
export function nodeMethod(method: string): OptionalMethod {
  return { key: method, method, gauge: 'avaxmon_node_api_available', labels: { method } };
}

/**
 * Runs a call to a method that operators may disable or a chain may lack (info.getNodeID, eth_feeConfig,
 * an L1's validators API, ...). A refusal ("unavailable": 404, -32601, "can't find method") is logged
 * once and reported as the gauge at 0, not as a failure on every run; any other error still fails
 * the run.
 */
export async function callOptional<T>(
  ctx: CollectContext,
  out: SampleSet,
  method: OptionalMethod,
  call: () => Promise<T>,
): Promise<T | undefined> {
  try {
    const result = await call();
    if (ctx.facts.unavailableMethods.delete(method.key))
      ctx.log.info({ ...method.labels, method: method.method }, 'Node method is available again');
    out.add(method.gauge, method.labels, 1);
    return result;
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.outcome !== 'unavailable') throw error;
    if (!ctx.facts.unavailableMethods.has(method.key)) {
      ctx.facts.unavailableMethods.add(method.key);
      // A sentence, not an error object: a missing method is a fact about the node, not a failure.
      const fields = { ...method.labels, method: method.method, reason: error.message };
      const sentence = `Node method is unavailable: ${method.method} is not served here; reported once, asked again each run`;
      if (method.normallyAbsent) ctx.log.debug(fields, sentence);
      else ctx.log.info(fields, sentence);
    }
    out.add(method.gauge, method.labels, 0);
    return undefined;
  }
}
