import type { CollectContext, SampleSet } from './collector.js';

/** What a side call gives when it failed: the series that depend on it are left out. */
export const UNANSWERED = Symbol('unanswered');
export type Answer<T> = T | typeof UNANSWERED;

/**
 * A call a collector makes besides its main one (the Helicon time, the fee price): when it fails,
 * only the series that depend on it are lost, never the run, so the validator set, expiry and
 * renewal stay exported whenever the set answers. `avaxmon_collector_call_up` marks which part is
 * missing; the failure is logged when it starts and when it ends, not on every run.
 */
export async function sideCall<T>(
  ctx: CollectContext,
  out: SampleSet,
  { collector, method }: { collector: string; method: string },
  call: () => Promise<T>,
): Promise<Answer<T>> {
  const labels = { collector, method };
  const key = `side-call:${collector}:${method}`;
  try {
    const value = await call();
    out.add('avaxmon_collector_call_up', labels, 1);
    if (ctx.facts.unavailableMethods.delete(key)) ctx.log.info({ method }, 'answers again; its series are back');
    return value;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    out.add('avaxmon_collector_call_up', labels, 0);
    if (!ctx.facts.unavailableMethods.has(key) && !ctx.log.quiet) {
      ctx.facts.unavailableMethods.add(key);
      ctx.log.warn(
        { method, reason: error instanceof Error ? error.message : String(error) },
        'failed; only the series that depend on it are left out',
      );
    }
    return UNANSWERED;
  }
}
