import { gorillaAnswer } from '../../clients/jsonrpc.js';
import { FieldReader, type Entry } from '../../clients/parse.js';
import type { SubnetConfig } from '../../config/schema.js';
import { callUpMetrics } from '../../metrics/catalogue/call-up.js';
import { validatorMetrics } from '../../metrics/catalogue/validators.js';
import { SampleSet, type CollectContext, type Collector } from '../collector.js';
import { downtimeAllowanceSeconds, downtimeBudgetSeconds } from './downtime-budget.js';
import { NetworkAggregator } from './network-aggregates.js';
import { decidingUptime } from './deciding-view.js';
import { heliconSeconds } from './network-view.js';
import { balanceRunwaySeconds } from './runway.js';
import { uptimeRequirement } from './uptime-requirement.js';
import { resolveNodeIds } from './watched-nodes.js';
import { sideCall, UNANSWERED, type Answer } from '../side-call.js';
import { slowFact } from '../slow-fact.js';

const METHOD = 'platform.getCurrentValidators';
/** The fields of an entry read below: network-wide the answer is 1.4 MB, mostly reward owners and signer keys. */
const VALIDATORS_ANSWER = gorillaAnswer({
  validators: [
    {
      nodeID: true,
      validationID: true,
      balance: true,
      weight: true,
      delegatorWeight: true,
      delegatorCount: true,
      delegationFee: true,
      potentialReward: true,
      connected: true,
      uptime: true,
      startTime: true,
      endTime: true,
      nextPeriod: true,
      validatorAuthority: true,
      autoCompoundRewardShares: true,
    },
  ],
});
const NAVAX_PER_AVAX = 1e9;
const MILLIONTHS = 1e6;

/**
 * Whose view an uptime series is: `network` is how the deciding share of the other validators'
 * stake sees this node (info.peers observedUptime, see deciding-view.ts: what decides its reward);
 * `self` is the node's own getCurrentValidators entry for itself (always about 100%, kept as a
 * secondary series); `target` is the queried node's view of another validator.
 */
type View = 'network' | 'self' | 'target';

/** One run's shared state: the output, a reader, and the upstream facts fetched at most once. */
interface Run {
  readonly ctx: CollectContext;
  readonly out: SampleSet;
  readonly read: FieldReader;
  readonly nowSeconds: number;
  /** This node's id when it is watched as `self`: a role to learn, not a validator that must be there. */
  readonly selfId?: string;
  /** The sets this node was found in: its role. */
  readonly selfIn: Set<'primary' | 'l1'>;
  feePrice?: Promise<Answer<number>>;
  helicon?: Promise<Answer<number | undefined>>;
}

const METRICS = [...validatorMetrics, ...callUpMetrics];

/**
 * platform.getCurrentValidators for the primary network and each configured subnet or L1, asking
 * only for the watched node ids. A watched node missing from a set exports
 * avaxmon_validator_active 0 so an alert has a series to fire on. With network_wide the primary
 * set is fetched whole, once, and summarised; per-validator series stay limited to watched nodes.
 * For the watched node itself the uptime that counts is the network's (the deciding share of its
 * peers' views), joined here so the downtime budget and the uptime alerts read one series per validator.
 */
export function createValidatorsCollector(): Collector {
  return {
    name: 'validators',
    metrics: METRICS,
    async collect(ctx) {
      const watched = await resolveNodeIds(ctx, ctx.target.validators.node_ids);
      const run: Run = {
        ctx,
        out: new SampleSet({ target: ctx.target.name }),
        read: new FieldReader(ctx.target.name, METHOD),
        nowSeconds: ctx.nowMs / 1000,
        selfId: ctx.target.validators.node_ids.includes('self') ? ctx.facts.nodeId : undefined,
        selfIn: new Set(),
      };
      await Promise.all([primaryNetwork(run, watched), ...ctx.target.subnets.map((subnet) => subnetValidators(run, subnet, watched))]);
      if (run.selfId) run.out.add('avaxmon_node_role', { role: roleOf(run.selfIn) }, 1);
      return run.out.observation();
    },
  };
}

async function primaryNetwork(run: Run, watched: readonly string[]): Promise<void> {
  const { ctx } = run;
  const networkWide = ctx.target.validators.network_wide;
  if (!networkWide && watched.length === 0) return;
  // The Helicon time (every listed validator) is asked alongside the set.
  const [validators] = await Promise.all([currentValidators(run, undefined, networkWide ? undefined : watched), helicon(run)]);
  if (networkWide) await exportAggregates(run, validators);
  const byNode = indexByNode(validators, watched);
  for (const nodeId of watched) {
    const entry = byNode.get(nodeId);
    if (entry && nodeId === run.selfId) run.selfIn.add('primary');
    if (entry) await exportPrimaryValidator(run, nodeId, entry);
    else if (nodeId !== run.selfId) run.out.add('avaxmon_validator_active', { subnet: 'primary', node_id: nodeId }, 0);
  }
}

/**
 * What the node is, from the sets it was found in: an API or RPC node validates nothing (a role,
 * not a fault), and since Etna (ACP-77) a node may validate an L1 without the Primary Network.
 */
function roleOf(sets: ReadonlySet<'primary' | 'l1'>): 'primary_validator' | 'l1_validator' | 'api' {
  if (sets.has('primary')) return 'primary_validator';
  return sets.has('l1') ? 'l1_validator' : 'api';
}

async function subnetValidators(run: Run, subnet: SubnetConfig, watched: readonly string[]): Promise<void> {
  const nodeIds = subnet.node_ids ? await resolveNodeIds(run.ctx, subnet.node_ids) : watched;
  const byNode = indexByNode(await currentValidators(run, subnet.subnet_id, nodeIds), nodeIds);
  for (const nodeId of nodeIds) {
    const entry = byNode.get(nodeId);
    const labels = { subnet: subnet.name, node_id: nodeId };
    if (entry && nodeId === run.selfId) run.selfIn.add('l1');
    if (!entry && nodeId !== run.selfId) run.out.add('avaxmon_validator_active', labels, 0);
    else if (!entry) continue;
    else if (isL1Validator(entry)) await exportL1Validator(run, labels, entry);
    else exportSubnetStaker(run.out, labels, entry);
  }
}

/** Never asks with an empty nodeIDs list: the node would answer with the whole set. */
async function currentValidators(run: Run, subnetId: string | undefined, nodeIds: readonly string[] | undefined): Promise<Iterable<Entry>> {
  if (nodeIds !== undefined && nodeIds.length === 0) return [];
  const params = { ...(subnetId ? { subnetID: subnetId } : {}), ...(nodeIds ? { nodeIDs: nodeIds } : {}) };
  const reply = run.read.object(await run.ctx.node.callProjected('/ext/bc/P', METHOD, params, VALIDATORS_ANSWER, run.ctx.signal), 'result');
  const list = run.read.array(reply.validators, 'validators');
  // Re-iterable: each pass makes the entries' readers as it goes (see FieldReader.entries).
  return { [Symbol.iterator]: () => run.read.entries(list, 'validators') };
}

/**
 * The watched nodes' entries, keyed by node id; an L1 entry wins over a legacy staker of the same
 * node on a converted subnet. Entries of unwatched nodes (the whole set, network-wide) are skipped.
 */
function indexByNode(validators: Iterable<Entry>, watched: readonly string[]): Map<string, Entry> {
  const wanted = new Set(watched);
  const byNode = new Map<string, Entry>();
  for (const entry of validators) {
    const nodeId = entry.read.string(entry.fields.nodeID, 'nodeID');
    if (wanted.has(nodeId) && (!byNode.has(nodeId) || isL1Validator(entry))) byNode.set(nodeId, entry);
  }
  return byNode;
}

function isL1Validator({ fields }: Entry): boolean {
  return fields.validationID !== undefined || fields.balance !== undefined;
}

/**
 * A primary network validator: stake in AVAX, the requirement of its validation (ACP-267), its
 * ACP-236 renewal, its uptime by view, and the downtime budget from the view that decides its reward.
 */
async function exportPrimaryValidator(run: Run, nodeId: string, entry: Entry): Promise<void> {
  const { out } = run;
  const { fields, read } = entry;
  const labels = { subnet: 'primary', node_id: nodeId };
  const startSeconds = read.uint64(fields.startTime, 'startTime');
  const endSeconds = read.uint64(fields.endTime, 'endTime');
  exportStaker(out, labels, entry);
  out.add('avaxmon_validator_weight_avax', labels, read.uint64(fields.weight, 'weight') / NAVAX_PER_AVAX);
  exportRenewal(out, labels, entry);
  // The node's own id is known once `self` was resolved or node_info has run.
  const isSelf = nodeId === run.ctx.facts.nodeId;
  const entryView: View = isSelf ? 'self' : 'target';
  if (fields.connected !== undefined)
    out.add('avaxmon_validator_connected', { ...labels, view: entryView }, read.boolean(fields.connected, 'connected'));
  if (fields.uptime !== undefined)
    out.add('avaxmon_validator_uptime_ratio', { ...labels, view: entryView }, read.percentRatio(fields.uptime, 'uptime'));
  const heliconAt = await helicon(run);
  if (heliconAt === UNANSWERED) return;
  const requirement = uptimeRequirement(startSeconds, heliconAt, run.ctx.target.validators.reward_uptime_requirement);
  out.add('avaxmon_validator_uptime_requirement_ratio', labels, requirement);
  out.add('avaxmon_validator_downtime_allowance_seconds', labels, downtimeAllowanceSeconds(requirement, startSeconds, endSeconds));
  const decisive = isSelf ? networkView(run, labels) : targetView(entry);
  if (!decisive) return;
  out.add(
    'avaxmon_validator_downtime_budget_seconds',
    { ...labels, view: decisive.view },
    downtimeBudgetSeconds({
      requirement,
      uptimeRatio: decisive.ratio,
      startSeconds,
      endSeconds,
      nowSeconds: run.nowSeconds,
    }),
  );
}

interface ViewedUptime {
  readonly view: View;
  readonly ratio: number;
}

/** This node's uptime as the deciding share of the connected validators' stake sees it, exported with view="network". */
function networkView(run: Run, labels: Record<string, string>): ViewedUptime | undefined {
  const ratio = decidingUptime(run.ctx);
  if (ratio === undefined) return undefined;
  run.out.add('avaxmon_validator_uptime_ratio', { ...labels, view: 'network' }, ratio);
  return { view: 'network', ratio };
}

/** Another validator's uptime as the queried node sees it: the best view a single node has of it. */
function targetView({ fields, read }: Entry): ViewedUptime | undefined {
  return fields.uptime === undefined ? undefined : { view: 'target', ratio: read.percentRatio(fields.uptime, 'uptime') };
}

/** The Helicon time decides each validation's requirement; without it only the requirement's series are lost. */
function helicon(run: Run): Promise<Answer<number | undefined>> {
  run.helicon ??= sideCall(run.ctx, run.out, { collector: 'validators', method: 'info.upgrades' }, () =>
    slowFact(run.ctx, 'helicon', () => heliconSeconds(run.ctx)),
  );
  return run.helicon;
}

/**
 * ACP-236: an auto-renewed validator carries validatorAuthority, nextPeriod (seconds; "0" = it
 * leaves at the end of this cycle) and autoCompoundRewardShares (millionths). A fixed-period
 * validation has none of them and does not renew.
 */
function exportRenewal(out: SampleSet, labels: Record<string, string>, { fields, read }: Entry): void {
  if (fields.nextPeriod === undefined) {
    out.add('avaxmon_validator_auto_renew', labels, 0);
    return;
  }
  read.object(fields.validatorAuthority, 'validatorAuthority');
  const nextPeriod = read.uint64(fields.nextPeriod, 'nextPeriod');
  out.add('avaxmon_validator_auto_renew', labels, nextPeriod > 0);
  out.add('avaxmon_validator_next_period_seconds', labels, nextPeriod);
  out.add(
    'avaxmon_validator_auto_compound_ratio',
    labels,
    read.uint64(fields.autoCompoundRewardShares, 'autoCompoundRewardShares') / MILLIONTHS,
  );
}

/** Whether a primary validator stays on after its current period: auto-renewed with a next period. */
function renews({ fields, read }: Entry): boolean {
  return (read.optional(fields.nextPeriod, 'nextPeriod', read.uint64) ?? 0) > 0;
}

/** A permissioned subnet validator lists only txID, times, weight (unitless) and nodeID. */
function exportSubnetStaker(out: SampleSet, labels: Record<string, string>, entry: Entry): void {
  exportStaker(out, labels, entry);
  out.add('avaxmon_validator_consensus_weight', labels, entry.read.uint64(entry.fields.weight, 'weight'));
}

/** What every staker has, and the reward and delegation fields of primary validators when present. */
function exportStaker(out: SampleSet, labels: Record<string, string>, { fields, read }: Entry): void {
  out.add('avaxmon_validator_active', labels, 1);
  out.add('avaxmon_validator_start_timestamp_seconds', labels, read.uint64(fields.startTime, 'startTime'));
  if (fields.endTime !== undefined) out.add('avaxmon_validator_end_timestamp_seconds', labels, read.uint64(fields.endTime, 'endTime'));
  if (fields.potentialReward !== undefined)
    out.add('avaxmon_validator_potential_reward_avax', labels, read.navaxToAvax(fields.potentialReward, 'potentialReward'));
  if (fields.delegationFee !== undefined)
    out.add('avaxmon_validator_delegation_fee_ratio', labels, read.percentRatio(fields.delegationFee, 'delegationFee'));
  // `delegators` is listed only when exactly one nodeID was asked for; the counts are always there.
  if (fields.delegatorCount !== undefined)
    out.add('avaxmon_validator_delegators', labels, read.uint64(fields.delegatorCount, 'delegatorCount'));
  if (fields.delegatorWeight !== undefined)
    out.add('avaxmon_validator_delegator_weight_avax', labels, read.navaxToAvax(fields.delegatorWeight, 'delegatorWeight'));
}

/** An L1 validator has a balance instead of an end time; inactive ones stay listed with balance "0". */
async function exportL1Validator(run: Run, labels: Record<string, string>, { fields, read }: Entry): Promise<void> {
  const { out } = run;
  const balance = fields.balance ?? '0';
  const balanceNavax = read.uint64(balance, 'balance');
  const active = balanceNavax > 0;
  out.add('avaxmon_validator_active', labels, active);
  out.add('avaxmon_validator_start_timestamp_seconds', labels, read.uint64(fields.startTime, 'startTime'));
  out.add('avaxmon_l1_validator_active', labels, active);
  out.add('avaxmon_l1_validator_balance_avax', labels, read.navaxToAvax(balance, 'balance'));
  const weight = read.uint64(fields.weight, 'weight');
  out.add('avaxmon_l1_validator_weight', labels, weight);
  out.add('avaxmon_validator_consensus_weight', labels, weight);
  if (fields.validationID !== undefined) {
    out.add('avaxmon_l1_validator_info', { ...labels, validation_id: read.string(fields.validationID, 'validationID') }, 1);
  }
  const price = await feePrice(run);
  // An inactive validator has no runway left to run out: AvalancheL1ValidatorInactive speaks for it.
  const runway = active && price !== UNANSWERED ? balanceRunwaySeconds(balanceNavax, price) : undefined;
  if (runway !== undefined) out.add('avaxmon_l1_validator_balance_runway_seconds', labels, runway);
}

/** The P-Chain-wide continuous fee price, nAVAX per second per active L1 validator; asked once per run. */
function feePrice(run: Run): Promise<Answer<number>> {
  run.feePrice ??= sideCall(run.ctx, run.out, { collector: 'validators', method: 'platform.getValidatorFeeState' }, async () => {
    const read = new FieldReader(run.ctx.target.name, 'platform.getValidatorFeeState');
    const reply = read.object(await run.ctx.node.call('/ext/bc/P', 'platform.getValidatorFeeState', {}, run.ctx.signal), 'result');
    const price = read.number(reply.price, 'price');
    run.out.add('avaxmon_l1_validator_fee_price_avax_per_second', {}, price / NAVAX_PER_AVAX);
    return price;
  });
  return run.feePrice;
}

/** The whole set as the target node sees it (its connections, its uptime tracking of each validator). */
async function exportAggregates(run: Run, validators: Iterable<Entry>): Promise<void> {
  const { out } = run;
  const aggregator = new NetworkAggregator(run.nowSeconds);
  const heliconAt = await helicon(run);
  const override = run.ctx.target.validators.reward_uptime_requirement;
  for (const entry of validators) {
    const { fields, read } = entry;
    const weightNavax = read.uint64(fields.weight, 'weight') + (read.optional(fields.delegatorWeight, 'delegatorWeight', read.uint64) ?? 0);
    aggregator.add({
      weightAvax: weightNavax / NAVAX_PER_AVAX,
      connected: read.optional(fields.connected, 'connected', read.boolean) ?? false,
      uptimeRatio: read.optional(fields.uptime, 'uptime', read.percentRatio) ?? 0,
      requirement:
        heliconAt === UNANSWERED ? undefined : uptimeRequirement(read.uint64(fields.startTime, 'startTime'), heliconAt, override),
      endSeconds: read.uint64(fields.endTime, 'endTime'),
      renews: renews(entry),
    });
  }
  const summary = aggregator.result();
  const labels = { subnet: 'primary' };
  out.add('avaxmon_network_validators', labels, summary.count);
  out.add('avaxmon_network_validator_weight_avax', labels, summary.weightAvax);
  out.add('avaxmon_network_validator_connected_weight_avax', labels, summary.connectedWeightAvax);
  out.add('avaxmon_network_validator_connected_ratio', labels, summary.connectedRatio);
  if (heliconAt !== UNANSWERED) out.add('avaxmon_network_validators_below_uptime_requirement', labels, summary.belowRequirement);
  out.add('avaxmon_network_validators_ending_within_24h', labels, summary.endingWithin24h);
  if (summary.count === 0) return;
  out.add('avaxmon_network_validator_uptime_min_ratio', labels, summary.uptimeMin);
  out.add('avaxmon_network_validator_uptime_p10_ratio', labels, summary.uptimeP10);
  out.add('avaxmon_network_validator_uptime_median_ratio', labels, summary.uptimeMedian);
  out.add('avaxmon_network_validator_uptime_p90_ratio', labels, summary.uptimeP90);
}
