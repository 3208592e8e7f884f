import {
  chainHeight,
  chainWorld,
  findChain,
  l1Balance,
  type ChainWorld,
  type SimL1Validator,
  type SimSubnetStaker,
  type SimValidator,
} from '../chain-world.js';
import { autoRenewJson } from '../staking.js';
import { PRIMARY_NETWORK_ID, type SimState } from '../state.js';
import { RpcFailure, type MethodHandler, type PartlyTimedHandler } from './types.js';

const owner = (seed: string) => ({ locktime: '0', threshold: '1', addresses: [`P-avax1${seed.slice(0, 38).toLowerCase()}`] });
const SIGNER = { publicKey: `0x${'8f'.repeat(48)}`, proofOfPossession: `0x${'a3'.repeat(96)}` };

/** The subnet a getCurrentValidators call asks for; the primary network when none is given. */
function subnetOf(params: Record<string, unknown>): string {
  return typeof params.subnetID === 'string' && params.subnetID !== '' ? params.subnetID : PRIMARY_NETWORK_ID;
}

/** platform.getCurrentValidators: the primary network's validators, or a subnet's stakers and L1 validators. */
function currentValidators(params: Record<string, unknown>, state: SimState, now: number): unknown {
  const world = chainWorld(state);
  const nodeIds = Array.isArray(params.nodeIDs) ? params.nodeIDs.map(String) : [];
  const wanted = nodeIds.length > 0 ? new Set(nodeIds) : undefined;
  const subnetId = subnetOf(params);
  if (subnetId === PRIMARY_NETWORK_ID) {
    const listDelegators = nodeIds.length === 1;
    return {
      validators: world.validators
        .filter((v) => !wanted || wanted.has(v.nodeId))
        .map((v) => primaryValidatorJson(state, v, listDelegators)),
    };
  }
  const subnet = world.subnets.find((candidate) => candidate.subnetId === subnetId);
  if (!subnet) return { validators: [] };
  return {
    validators: [
      ...subnet.stakers.filter((s) => !wanted || wanted.has(s.nodeId)).map(stakerJson),
      ...subnet.l1Validators.filter((v) => !wanted || wanted.has(v.nodeId)).map((v) => l1ValidatorJson(world, v, now)),
    ],
  };
}

/**
 * Only an L1's validators read the clock (their balances drain with time): the primary network's
 * 1,500-validator answer (1.4 MB) is kept, as info.peers is.
 */
currentValidators.readsClock = (params: Record<string, unknown>): boolean => subnetOf(params) !== PRIMARY_NETWORK_ID;

/**
 * platform.* on /ext/bc/P with the real encodings: uint64 and percentages as strings, the fee
 * state as plain numbers, and `delegators` listed only when exactly one nodeID is asked for.
 */
export const platformMethods: Record<string, MethodHandler> = {
  'platform.getCurrentValidators': currentValidators satisfies PartlyTimedHandler,
  'platform.getValidatorFeeState': (_, state, now) => {
    const world = chainWorld(state);
    return {
      excess: world.feeExcess,
      price: world.feePrice,
      timestamp: new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    };
  },
  'platform.getValidatorFeeConfig': () => ({ capacity: 20_000, target: 10_000, minPrice: 512, excessConversionConstant: 1_246_488_515 }),
  'platform.getHeight': (_, state, now) => ({ height: String(chainHeight(findChain(chainWorld(state), 'P')!, now)) }),
  'platform.getBlockchainStatus': (params, state) => {
    const id = String(params.blockchainID ?? '');
    if (id === '') throw new RpcFailure("argument 'blockchainID' not given");
    return { status: findChain(chainWorld(state), id)?.status ?? 'UnknownChain' };
  },
  'platform.getCurrentSupply': (_, state, now) => {
    const world = chainWorld(state);
    return { supply: world.supplyNavax.toString(), height: String(chainHeight(findChain(world, 'P')!, now)) };
  },
};

/** An auto-renewed validator (ACP-236) adds validatorAuthority, nextPeriod and autoCompoundRewardShares. */
function primaryValidatorJson(state: SimState, v: SimValidator, listDelegators: boolean): Record<string, unknown> {
  return {
    txID: v.txId,
    startTime: String(v.startTime),
    endTime: String(v.endTime),
    weight: String(v.weightNavax),
    nodeID: v.nodeId,
    validationRewardOwner: owner(v.txId),
    delegationRewardOwner: owner(v.txId),
    potentialReward: String(v.potentialRewardNavax),
    accruedDelegateeReward: '0',
    delegationFee: v.delegationFeePercent.toFixed(4),
    uptime: v.uptimePercent.toFixed(4),
    connected: v.connected,
    signer: SIGNER,
    delegatorCount: String(v.delegatorCount),
    delegatorWeight: String(v.delegatorWeightNavax),
    ...autoRenewJson(state, v.nodeId, v.txId),
    ...(listDelegators ? { delegators: delegatorsOf(v) } : {}),
  };
}

function delegatorsOf(v: SimValidator): Array<Record<string, unknown>> {
  return Array.from({ length: v.delegatorCount }, (_, index) => ({
    txID: `${v.txId.slice(0, 45)}${index}`,
    startTime: String(v.startTime + 3600 * (index + 1)),
    endTime: String(v.endTime - 3600),
    weight: String(Math.floor(v.delegatorWeightNavax / v.delegatorCount)),
    nodeID: v.nodeId,
    rewardOwner: owner(`d${index}${v.txId}`),
    potentialReward: String(Math.floor(v.delegatorWeightNavax / v.delegatorCount / 50)),
  }));
}

/** A permissioned subnet validator is a bare staker: no uptime, connected or reward fields. */
function stakerJson(s: SimSubnetStaker): Record<string, unknown> {
  return { txID: s.txId, startTime: String(s.startTime), endTime: String(s.endTime), weight: String(s.weight), nodeID: s.nodeId };
}

/** An L1 validator: no txID, endTime, uptime or connected; balance "0" once inactive. */
function l1ValidatorJson(world: ChainWorld, v: SimL1Validator, now: number): Record<string, unknown> {
  return {
    nodeID: v.nodeId,
    weight: String(v.weight),
    startTime: String(v.startTime),
    validationID: v.validationId,
    publicKey: SIGNER.publicKey,
    remainingBalanceOwner: owner(v.validationId),
    deactivationOwner: owner(v.validationId),
    minNonce: '0',
    balance: String(l1Balance(world, v, now)),
  };
}
