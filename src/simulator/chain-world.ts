/*
 * The simulated node's view of validators and chains: a mainnet-scale primary validator set, a
 * permissioned subnet, an L1 whose validators' balances drain at the continuous fee rate, chain
 * heights that advance with time unless stalled, and the EVM chains' fee configs.
 */
import { fakeCb58, SIM_NODE_ID, type SimState } from './state.js';
import type { ChainWorld, SimChain, SimEvmChain, SimL1Validator, SimSubnetStaker, SimValidator } from './chain-world-types.js';

export type { ChainWorld, SimChain, SimEvmChain, SimL1Validator, SimSubnet, SimSubnetStaker, SimValidator } from './chain-world-types.js';

/** A permissioned (not converted) subnet the simulated node validates. */
export const SIM_SUBNET = { name: 'permissioned', subnetId: fakeCb58(90_001, 50), blockchainId: fakeCb58(90_002, 49) };
/** An L1 (converted subnet, subnet-evm) the simulated node validates. */
export const SIM_L1 = { name: 'dexalot', subnetId: fakeCb58(90_003, 50), blockchainId: fakeCb58(90_004, 49) };

const DAY = 86_400;
const AVAX = 1_000_000_000;
const MAINNET_MIN_PRICE = 512;

/** The world of this simulator, created on first use with the configured validator count. */
export function chainWorld(state: SimState, nowMs = Date.now()): ChainWorld {
  state.chainWorld ??= createChainWorld(state.validatorCount, nowMs);
  return state.chainWorld;
}

function createChainWorld(validatorCount: number, nowMs: number): ChainWorld {
  const now = Math.floor(nowMs / 1000);
  const validators = Array.from({ length: Math.max(1, validatorCount) }, (_, index) => primaryValidator(index, now));
  const others = validators.slice(1, 5).map((validator) => validator.nodeId);
  return {
    validators,
    departed: new Map(),
    subnets: [
      { ...SIM_SUBNET, stakers: [SIM_NODE_ID, ...others].map((nodeId, index) => subnetStaker(nodeId, index, now)), l1Validators: [] },
      { ...SIM_L1, stakers: [], l1Validators: [SIM_NODE_ID, ...others].map((nodeId, index) => l1Validator(nodeId, index, now, nowMs)) },
    ],
    chains: new Map([
      ['P', chain(21_500_000, 0.5, nowMs)],
      ['X', chain(1_200_000, 0.2, nowMs)],
      ['C', { ...chain(62_000_000, 1, nowMs), evm: cChainEvm() }],
      [SIM_SUBNET.blockchainId, chain(350_000, 0.5, nowMs)],
      [SIM_L1.blockchainId, { ...chain(800_000, 0.5, nowMs), evm: subnetEvm() }],
    ]),
    feePrice: MAINNET_MIN_PRICE,
    feeExcess: 0,
    supplyNavax: 460_123_456_789_012_345n,
  };
}

/** Validator `index` of the primary network; index 0 is the simulated node itself. */
export function primaryValidator(index: number, now: number): SimValidator {
  // Peers use the same ids (generatePeers), so the first validators are also this node's peers.
  const nodeId = index === 0 ? SIM_NODE_ID : `NodeID-${fakeCb58(index - 1, 33)}`;
  const durationDays = index === 0 ? 90 : 14 + ((index * 37) % 352);
  const elapsed = index === 0 ? 30 * DAY : Math.floor((durationDays * DAY * (((index * 53) % 97) + 1)) / 100);
  const startTime = now - elapsed;
  // A few validators end within the next day, as on mainnet.
  const endTime = index % 40 === 7 ? now + ((index % 23) + 1) * 1800 : startTime + durationDays * DAY;
  const weightNavax = (2000 + ((index * 7919) % 500_000)) * AVAX;
  const delegatorCount = (index + 3) % 6;
  return {
    nodeId,
    txId: fakeCb58(50_000 + index, 50),
    startTime,
    endTime,
    weightNavax,
    uptimePercent: index === 0 ? 99.9812 : index % 101 === 9 ? 60 + (index % 20) : 100 - ((index * 13) % 50) / 10,
    connected: index % 43 !== 11,
    delegationFeePercent: 2 + (index % 9),
    potentialRewardNavax: Math.floor((weightNavax * 0.07 * (endTime - startTime)) / (365 * DAY)),
    delegatorCount,
    delegatorWeightNavax: delegatorCount * 25 * AVAX * (1 + (index % 4)),
  };
}

function subnetStaker(nodeId: string, index: number, now: number): SimSubnetStaker {
  return { nodeId, txId: fakeCb58(60_000 + index, 50), startTime: now - 40 * DAY, endTime: now + (200 + index) * DAY, weight: 20 + index };
}

function l1Validator(nodeId: string, index: number, now: number, nowMs: number): SimL1Validator {
  return {
    nodeId,
    validationId: fakeCb58(70_000 + index, 50),
    weight: 20,
    startTime: now - 100 * DAY,
    // The last one has run out of balance: inactive, still listed with balance 0.
    balanceNavax: index === 4 ? 0 : (15 + index) * AVAX,
    balanceAtMs: nowMs,
    connected: true,
    uptimePercent: 99.9536,
  };
}

function chain(height: number, blocksPerSecond: number, nowMs: number): SimChain {
  return { height, sinceMs: nowMs, blocksPerSecond, stalled: false, status: 'Validating' };
}

/** coreth has neither eth_feeConfig nor eth_getActiveRulesAt: both answer -32601 (also after Helicon). */
function cChainEvm(): SimEvmChain {
  return { chainId: 43114, lastChangedAt: 0, precompiles: {}, precompileUpgrades: [], activeRulesApi: false };
}

function subnetEvm(): SimEvmChain {
  return {
    chainId: 432204,
    feeConfig: {
      gasLimit: 8_000_000,
      targetBlockRate: 2,
      minBaseFee: 25_000_000_000,
      targetGas: 15_000_000,
      baseFeeChangeDenominator: 36,
      minBlockGasCost: 0,
      maxBlockGasCost: 1_000_000,
      blockGasCostStep: 200_000,
    },
    lastChangedAt: 0,
    precompiles: { feeManagerConfig: { blockTimestamp: 0 }, warpConfig: { blockTimestamp: 1_734_034_648 } },
    // An allow list enabled once and later switched off: configured in the config, yet no longer in force.
    precompileUpgrades: [
      { txAllowListConfig: { blockTimestamp: 1_740_000_000 } },
      { txAllowListConfig: { blockTimestamp: 1_750_000_000, disable: true } },
    ],
    initialMinDelayMs: 1000,
    activeRulesApi: true,
  };
}

export function chainHeight(chainState: SimChain, nowMs: number): number {
  if (chainState.stalled) return chainState.height;
  return chainState.height + Math.floor(((nowMs - chainState.sinceMs) / 1000) * chainState.blocksPerSecond);
}

/** Remaining balance in nAVAX: what was deposited minus the fee accrued since. */
export function l1Balance(world: ChainWorld, validator: SimL1Validator, nowMs: number): number {
  const drained = Math.floor((world.feePrice * Math.max(0, nowMs - validator.balanceAtMs)) / 1000);
  return Math.max(0, validator.balanceNavax - drained);
}

/** Finds a chain by alias, blockchain id or subnet name. */
export function findChain(world: ChainWorld, name: string): SimChain | undefined {
  const subnet = world.subnets.find((candidate) => candidate.name === name || candidate.subnetId === name);
  return world.chains.get(subnet ? subnet.blockchainId : name);
}

/** Whether the chain an /ext/bc/<id>/... path addresses is bootstrapping (its API then answers 503). */
export function isBootstrappingPath(state: SimState, path: string): boolean {
  const match = /^\/ext\/bc\/([^/]+)/.exec(path);
  return match !== null && state.bootstrapped.get(match[1]) === false;
}

/** The chain an /ext/bc/<id>/... path addresses. */
export function chainOfPath(world: ChainWorld, path: unknown): SimChain | undefined {
  const match = /^\/ext\/bc\/([^/]+)/.exec(String(path ?? ''));
  return match ? world.chains.get(match[1]) : undefined;
}
