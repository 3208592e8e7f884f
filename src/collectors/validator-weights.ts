import { gorillaAnswer } from '../clients/jsonrpc.js';
import { FieldReader } from '../clients/parse.js';
import { UpstreamError } from '../errors.js';
import type { CollectContext } from './collector.js';

export const WEIGHTS_METHOD = 'platform.getValidatorsAt';
/**
 * Of each validator, its weight (v1.15's map of node id to entry, whose BLS keys are left unread),
 * or an older node's `validators` map of bare weights, whole.
 */
const WEIGHTS_ANSWER = gorillaAnswer({ validators: true, '*': { weight: true } });
/** The primary validator set changes slowly; refetching its weights this often keeps the load low. */
const WEIGHTS_MAX_AGE_MS = 10 * 60_000;

/**
 * The primary network's validator weights (nAVAX, delegations included: the consensus weight) at
 * the current height, refetched when older than 10 minutes. One copy per target, in its facts: the
 * peers and validators collectors both read it, and a mainnet set is about 2,000 entries. The
 * P-Chain may be bootstrapping (503) or its API disabled: undefined then, logged once per target.
 */
export async function validatorWeights(ctx: CollectContext): Promise<ReadonlyMap<string, number> | undefined> {
  const memo = ctx.facts.validatorWeights;
  // A memo from a later run than this one (the clock stepped back) is refetched, as an old one is.
  const ageMs = memo ? ctx.nowMs - memo.fetchedAtMs : Number.POSITIVE_INFINITY;
  if (memo && ageMs >= 0 && ageMs < WEIGHTS_MAX_AGE_MS) return memo.weights;
  try {
    const weights = sharedCopy(await fetchWeights(ctx));
    ctx.facts.validatorWeights = { fetchedAtMs: ctx.nowMs, weights };
    if (ctx.facts.unavailableMethods.delete(WEIGHTS_METHOD))
      ctx.log.info({ method: WEIGHTS_METHOD }, 'Validator weights are available again');
    return weights;
  } catch (error) {
    // A malformed answer is not an unavailable API: it fails the run like any other bad field.
    if (!(error instanceof UpstreamError) || error.outcome === 'bad_body' || ctx.signal.aborted) throw error;
    ctx.facts.validatorWeights = undefined;
    if (!ctx.facts.unavailableMethods.has(WEIGHTS_METHOD) && !ctx.log.quiet) {
      ctx.facts.unavailableMethods.add(WEIGHTS_METHOD);
      ctx.log.warn(
        { method: WEIGHTS_METHOD, err: error },
        'Validator weights unavailable; stake-weighted peer views are left out until they answer',
      );
    }
    return undefined;
  }
}

/** The last distinct sets fetched by any target; a few, for a daemon watching nodes of several networks. */
const recentSets: Array<ReadonlyMap<string, number>> = [];
const RECENT_SETS = 4;

/**
 * The copy of an identical set another target fetched, if there is one: the nodes of a fleet share
 * a network, so they mostly answer the same set, which is then held once instead of once per
 * target (docs/decisions.md#a-fleets-per-slice-state-shared-without-closures).
 */
function sharedCopy(weights: ReadonlyMap<string, number>): ReadonlyMap<string, number> {
  const same = recentSets.find((set) => sameEntries(set, weights));
  if (same) return same;
  recentSets.unshift(weights);
  recentSets.length = Math.min(recentSets.length, RECENT_SETS);
  return weights;
}

function sameEntries(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [nodeId, weight] of a) if (b.get(nodeId) !== weight) return false;
  return true;
}

/**
 * The set at the P-Chain's last accepted height (platform.getHeight): the current set, which
 * AvalancheGo's own uptime accounting weighs by (network.go NodeUptime), and the cheapest for the
 * node to answer. "proposed" would be the proposervm's older minimum height, rebuilt from diffs.
 */
async function fetchWeights(ctx: CollectContext): Promise<Map<string, number>> {
  const heightRead = new FieldReader(ctx.target.name, 'platform.getHeight');
  const height = heightRead.uint64Text(
    heightRead.object(await ctx.node.call('/ext/bc/P', 'platform.getHeight', {}, ctx.signal), 'result').height,
    'height',
  );
  const read = new FieldReader(ctx.target.name, WEIGHTS_METHOD);
  const reply = read.object(await ctx.node.callProjected('/ext/bc/P', WEIGHTS_METHOD, { height }, WEIGHTS_ANSWER, ctx.signal), 'result');
  // v1.15 answers the map itself, each weight a json.Uint64; older nodes wrapped it in `validators`
  // with bare uint64 weights (plain JSON numbers).
  const legacy = reply.validators !== undefined;
  const set = legacy ? read.object(reply.validators, 'validators') : reply;
  const weights = new Map<string, number>();
  for (const [nodeId, entry] of Object.entries(set)) {
    weights.set(
      nodeId,
      legacy ? read.number(entry, `validators.${nodeId}`) : read.uint64(read.object(entry, nodeId).weight, `${nodeId}.weight`),
    );
  }
  return weights;
}
