import { SampleSet, type CollectContext } from './collector.js';

/** The work of one chain in a collector run: it writes into its own sample set. */
export interface ChainPart {
  readonly chain: string;
  collect(out: SampleSet): Promise<void>;
}

const FAILING_KEY = 'per-chain/failing';

/**
 * Runs each chain's part on its own, so one chain that fails (a 503 "not done bootstrapping", a
 * broken L1 RPC) never blinds its neighbours. A part's series reach `out` only when the whole part
 * succeeded; `upMetric{chain}` says 1 or 0 for every part. A chain that starts failing is logged
 * once as a warning, its recovery as info. When every part fails the run fails with the first
 * error: nothing was observed, so the collector itself reports failure.
 */
export async function collectPerChain(ctx: CollectContext, out: SampleSet, upMetric: string, parts: readonly ChainPart[]): Promise<void> {
  const settled = await Promise.allSettled(
    parts.map(async (part) => {
      const own = new SampleSet({ target: ctx.target.name });
      await part.collect(own);
      return own.samples;
    }),
  );
  const failing = failingChains(ctx);
  const errors: unknown[] = [];
  settled.forEach((result, index) => {
    const { chain } = parts[index];
    out.add(upMetric, { chain }, result.status === 'fulfilled');
    if (result.status === 'fulfilled') {
      out.samples.push(...result.value);
      if (failing.delete(chain)) ctx.log.info({ chain }, 'Chain answers again');
      return;
    }
    errors.push(result.reason);
    if (failing.has(chain) || ctx.log.quiet) ctx.log.debug({ chain, err: result.reason }, 'Chain still failing');
    else {
      failing.add(chain);
      ctx.log.warn({ chain, err: result.reason }, "Chain failed; its series are dropped until it answers, the other chains' stay");
    }
  });
  if (parts.length > 0 && errors.length === parts.length) throw errors[0];
}

function failingChains(ctx: CollectContext): Set<string> {
  let failing = ctx.memory.get(FAILING_KEY) as Set<string> | undefined;
  if (!failing) {
    failing = new Set();
    ctx.memory.set(FAILING_KEY, failing);
  }
  return failing;
}
