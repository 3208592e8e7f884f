import { FieldReader } from '../clients/parse.js';
import type { SubnetConfig } from '../config/schema.js';
import { validatorMetrics } from '../metrics/catalogue/validators.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { downtimeBudgetSeconds } from './validators/downtime-budget.js';
import { NetworkAggregator } from './validators/network-aggregates.js';
import { balanceRunwaySeconds } from './validators/runway.js';
import { resolveNodeIds } from './validators/watched-nodes.js';

const METHOD = 'platform.getCurrentValidators';
const NAVAX_PER_AVAX = 1e9;

type Entry = Record<string, unknown>;

/** One run's shared state: the output, a reader, and the L1 fee price fetched at most once. */
interface Run {
  readonly ctx: CollectContext;
  readonly out: SampleSet;
  readonly read: FieldReader;
  readonly nowSeconds: number;
  feePrice?: Promise<number>;
}

/**
 * platform.getCurrentValidators for the primary network and each configured subnet or L1, asking
 * only for the watched node ids. A watched node missing from a set exports
 * avaxmon_validator_active 0 so an alert has a series to fire on. With network_wide the primary
 * set is fetched whole, once, and summarised; per-validator series stay limited to watched nodes.
 */
export function createValidatorsCollector(): Collector {
  return {
    name: 'validators',
    metrics: validatorMetrics,
    async collect(ctx) {
      const run: Run = {
        ctx,
        out: new SampleSet({ target: ctx.target.name }),
        read: new FieldReader(ctx.target.name, METHOD),
        nowSeconds: ctx.nowMs / 1000,
      };
      const watched = await resolveNodeIds(ctx, ctx.target.validators.node_ids);
      await Promise.all([primaryNetwork(run, watched), ...ctx.target.subnets.map((subnet) => subnetValidators(run, subnet, watched))]);
      return run.out.observation();
    },
  };
}

async function primaryNetwork(run: Run, watched: readonly string[]): Promise<void> {
  const { ctx, read } = run;
  const networkWide = ctx.target.validators.network_wide;
  const entries = networkWide ? await currentValidators(run, undefined, undefined) : await currentValidators(run, undefined, watched);
  if (networkWide) exportAggregates(run, entries);
  const byNode = indexByNode(read, entries, watched);
  for (const nodeId of watched) {
    const entry = byNode.get(nodeId);
    if (entry) exportPrimaryValidator(run, nodeId, entry);
    else run.out.add('avaxmon_validator_active', { subnet: 'primary', node_id: nodeId }, 0);
  }
}

async function subnetValidators(run: Run, subnet: SubnetConfig, watched: readonly string[]): Promise<void> {
  const nodeIds = subnet.node_ids ? await resolveNodeIds(run.ctx, subnet.node_ids) : watched;
  const byNode = indexByNode(run.read, await currentValidators(run, subnet.subnet_id, nodeIds), nodeIds);
  for (const nodeId of nodeIds) {
    const entry = byNode.get(nodeId);
    const labels = { subnet: subnet.name, node_id: nodeId };
    if (!entry) run.out.add('avaxmon_validator_active', labels, 0);
    else if (isL1Validator(entry)) await exportL1Validator(run, labels, entry);
    else exportStaker(run, labels, entry, 1);
  }
}

/** Never asks with an empty nodeIDs list: the node would answer with the whole set. */
async function currentValidators(run: Run, subnetId: string | undefined, nodeIds: readonly string[] | undefined): Promise<Entry[]> {
  if (nodeIds !== undefined && nodeIds.length === 0) return [];
  const params = { ...(subnetId ? { subnetID: subnetId } : {}), ...(nodeIds ? { nodeIDs: nodeIds } : {}) };
  const reply = run.read.object(await run.ctx.node.call('/ext/bc/P', METHOD, params, run.ctx.signal), 'result');
  return run.read.array(reply.validators, 'validators') as Entry[];
}

/**
 * The watched nodes' entries, keyed by node id; an L1 entry wins over a legacy staker of the same
 * node on a converted subnet. Entries of unwatched nodes (the whole set, network-wide) are skipped.
 */
function indexByNode(read: FieldReader, entries: readonly Entry[], watched: readonly string[]): Map<string, Entry> {
  const wanted = new Set(watched);
  const byNode = new Map<string, Entry>();
  entries.forEach((entry, index) => {
    const nodeId = read.string(read.object(entry, `validators[${index}]`).nodeID, `validators[${index}].nodeID`);
    if (wanted.has(nodeId) && (!byNode.has(nodeId) || isL1Validator(entry))) byNode.set(nodeId, entry);
  });
  return byNode;
}

/** FieldReader.number without its regex, for the 2,000-entry network-wide pass; bad values still fail. */
function decimal(read: FieldReader, value: unknown, path: string): number {
  const number = typeof value === 'string' && value !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : read.number(value, path);
}

function isL1Validator(entry: Entry): boolean {
  return entry.validationID !== undefined || entry.balance !== undefined;
}

function exportPrimaryValidator(run: Run, nodeId: string, entry: Entry): void {
  const { read, out } = run;
  const labels = { subnet: 'primary', node_id: nodeId };
  exportStaker(run, labels, entry, NAVAX_PER_AVAX);
  if (entry.uptime === undefined) return;
  out.add('avaxmon_validator_downtime_budget_seconds', labels, downtimeBudgetSeconds({
    requirement: run.ctx.target.validators.reward_uptime_requirement,
    uptimeRatio: read.percentRatio(entry.uptime, 'uptime'),
    startSeconds: read.number(entry.startTime, 'startTime'),
    endSeconds: read.number(entry.endTime, 'endTime'),
    nowSeconds: run.nowSeconds,
  }));
}

/**
 * A staker of the primary network or a subnet. Permissioned subnet validators list only txID,
 * times, weight and nodeID; the reward, uptime and delegation fields appear when present.
 */
function exportStaker(run: Run, labels: Record<string, string>, entry: Entry, weightDivisor: number): void {
  const { read, out } = run;
  out.add('avaxmon_validator_active', labels, 1);
  out.add('avaxmon_validator_weight', labels, read.number(entry.weight, 'weight') / weightDivisor);
  out.add('avaxmon_validator_start_timestamp_seconds', labels, read.number(entry.startTime, 'startTime'));
  if (entry.endTime !== undefined) out.add('avaxmon_validator_end_timestamp_seconds', labels, read.number(entry.endTime, 'endTime'));
  if (entry.uptime !== undefined) out.add('avaxmon_validator_uptime_ratio', labels, read.percentRatio(entry.uptime, 'uptime'));
  if (entry.connected !== undefined) out.add('avaxmon_validator_connected', labels, read.boolean(entry.connected, 'connected'));
  if (entry.potentialReward !== undefined) out.add('avaxmon_validator_potential_reward_avax', labels, read.navaxToAvax(entry.potentialReward, 'potentialReward'));
  if (entry.delegationFee !== undefined) out.add('avaxmon_validator_delegation_fee_ratio', labels, read.percentRatio(entry.delegationFee, 'delegationFee'));
  // `delegators` is listed only when exactly one nodeID was asked for; the counts are always there.
  if (entry.delegatorCount !== undefined) out.add('avaxmon_validator_delegators', labels, read.number(entry.delegatorCount, 'delegatorCount'));
  if (entry.delegatorWeight !== undefined) out.add('avaxmon_validator_delegator_weight_avax', labels, read.navaxToAvax(entry.delegatorWeight, 'delegatorWeight'));
}

/** An L1 validator has a balance instead of an end time; inactive ones stay listed with balance "0". */
async function exportL1Validator(run: Run, labels: Record<string, string>, entry: Entry): Promise<void> {
  const { read, out } = run;
  const balanceNavax = read.number(entry.balance ?? '0', 'balance');
  const active = balanceNavax > 0;
  out.add('avaxmon_validator_active', labels, active);
  out.add('avaxmon_validator_start_timestamp_seconds', labels, read.number(entry.startTime, 'startTime'));
  out.add('avaxmon_l1_validator_active', labels, active);
  out.add('avaxmon_l1_validator_balance_avax', labels, read.navaxToAvax(entry.balance ?? '0', 'balance'));
  out.add('avaxmon_l1_validator_weight', labels, read.number(entry.weight, 'weight'));
  if (entry.validationID !== undefined) {
    out.add('avaxmon_l1_validator_info', { ...labels, validation_id: read.string(entry.validationID, 'validationID') }, 1);
  }
  const runway = balanceRunwaySeconds(balanceNavax, await feePrice(run));
  if (runway !== undefined) out.add('avaxmon_l1_validator_balance_runway_seconds', labels, runway);
}

/** The P-Chain-wide continuous fee price, nAVAX per second per active L1 validator; asked once per run. */
function feePrice(run: Run): Promise<number> {
  run.feePrice ??= (async () => {
    const read = new FieldReader(run.ctx.target.name, 'platform.getValidatorFeeState');
    const reply = read.object(await run.ctx.node.call('/ext/bc/P', 'platform.getValidatorFeeState', {}, run.ctx.signal), 'result');
    const price = read.number(reply.price, 'price');
    run.out.add('avaxmon_l1_validator_fee_price_avax_per_second', {}, price / NAVAX_PER_AVAX);
    return price;
  })();
  return run.feePrice;
}

function exportAggregates(run: Run, entries: readonly Entry[]): void {
  const { read, out } = run;
  const aggregator = new NetworkAggregator(run.nowSeconds, run.ctx.target.validators.reward_uptime_requirement);
  for (const item of entries) {
    const entry = read.object(item, 'validators[]');
    const weightNavax = decimal(read, entry.weight, 'weight') + decimal(read, entry.delegatorWeight ?? 0, 'delegatorWeight');
    aggregator.add(weightNavax / NAVAX_PER_AVAX, entry.connected === true, decimal(read, entry.uptime ?? 0, 'uptime') / 100, decimal(read, entry.endTime, 'endTime'));
  }
  const summary = aggregator.result();
  const labels = { subnet: 'primary' };
  out.add('avaxmon_network_validators', labels, summary.count);
  out.add('avaxmon_network_validator_weight_avax', labels, summary.weightAvax);
  out.add('avaxmon_network_validator_connected_weight_avax', labels, summary.connectedWeightAvax);
  out.add('avaxmon_network_validator_connected_ratio', labels, summary.connectedRatio);
  out.add('avaxmon_network_validators_below_uptime_requirement', labels, summary.belowRequirement);
  out.add('avaxmon_network_validators_ending_within_24h', labels, summary.endingWithin24h);
  if (summary.count === 0) return;
  out.add('avaxmon_network_validator_uptime_min_ratio', labels, summary.uptimeMin);
  out.add('avaxmon_network_validator_uptime_p10_ratio', labels, summary.uptimeP10);
  out.add('avaxmon_network_validator_uptime_median_ratio', labels, summary.uptimeMedian);
  out.add('avaxmon_network_validator_uptime_p90_ratio', labels, summary.uptimeP90);
}
