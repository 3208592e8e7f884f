import type { Action } from './action.js';
import { chainHeight, chainWorld, findChain, l1Balance, type ChainWorld, type SimChain } from './chain-world.js';
import type { CheckState, SimState } from './state.js';

const AVAX = 1_000_000_000;
const record = (argument: unknown) => (typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>) : {});

/**
 * Scenario actions on validators and chains. A node argument may be omitted (this node), `self`,
 * or a NodeID; a chain is an alias (P, X, C), a blockchain id or a subnet name.
 */
export const chainActions: Record<string, Action> = {
  /** `validator_uptime: 75` or `{ node_id, percent }`: the P-Chain uptime of a validator. */
  validator_uptime(state, argument) {
    const { node_id, percent } = typeof argument === 'number' ? { node_id: undefined, percent: argument } : record(argument);
    primaryValidator(state, node_id).uptimePercent = Number(percent);
  },
  validator_disconnect(state, argument) {
    setConnected(state, argument, false);
  },
  validator_connect(state, argument) {
    setConnected(state, argument, true);
  },
  /** The validator leaves the primary set (its staking period ended or it was never re-staked). */
  validator_leave(state, argument) {
    const world = chainWorld(state);
    const validator = primaryValidator(state, argument);
    world.validators = world.validators.filter((candidate) => candidate !== validator);
    world.departed.set(validator.nodeId, validator);
  },
  validator_rejoin(state, argument) {
    const world = chainWorld(state);
    const nodeId = resolveNode(state, argument);
    const validator = world.departed.get(nodeId);
    if (!validator) throw new Error(`validator_rejoin: ${nodeId} has not left`);
    world.departed.delete(nodeId);
    world.validators.unshift(validator);
  },
  /** `l1_balance: 0.5` or `{ node_id, subnet, avax }`: an L1 validator's remaining balance in AVAX now. */
  l1_balance(state, argument, now) {
    const { node_id, subnet, avax } =
      typeof argument === 'number' ? { node_id: undefined, subnet: undefined, avax: argument } : record(argument);
    const nodeId = resolveNode(state, node_id);
    const world = chainWorld(state);
    const validator = world.subnets
      .filter((candidate) => subnet === undefined || candidate.name === subnet || candidate.subnetId === subnet)
      .flatMap((candidate) => candidate.l1Validators)
      .find((candidate) => candidate.nodeId === nodeId);
    if (!validator) throw new Error(`l1_balance: ${nodeId} is not an L1 validator`);
    Object.assign(validator, { balanceNavax: Math.round(Number(avax) * AVAX), balanceAtMs: now });
  },
  /** The global L1 validator fee price in nAVAX per second; balances drain at the new rate from now. */
  l1_fee_price(state, argument, now) {
    const world = chainWorld(state);
    for (const validator of world.subnets.flatMap((subnet) => subnet.l1Validators)) {
      Object.assign(validator, { balanceNavax: l1Balance(world, validator, now), balanceAtMs: now });
    }
    world.feePrice = Number(argument);
  },
  chain_stall(state, argument, now) {
    const chain = chainNamed(state, argument);
    Object.assign(chain, { height: chainHeight(chain, now), sinceMs: now, stalled: true });
  },
  /** The chain accepts a block at once and then advances with time again. */
  chain_resume(state, argument, now) {
    const chain = chainNamed(state, argument);
    Object.assign(chain, { height: chainHeight(chain, now) + 1, sinceMs: now, stalled: false });
  },
  /**
   * `chain_bootstrapping: X` (alias, blockchain id or subnet name): the chain restarts bootstrapping.
   * Its API answers 503 "not done bootstrapping", info.isBootstrapped says false and its health
   * check fails, as on a real node; every other chain keeps answering. An L1's chain gets the check
   * a node tracking its subnet registers: named by its primary alias, which is the blockchain id
   * (chains/manager.go PrimaryAliasOrDefault), tagged with the subnet id.
   */
  chain_bootstrapping(state, argument, now) {
    const key = chainKey(state, argument);
    state.bootstrapped.set(key, false);
    const check = state.checks.get(key) ?? subnetChainCheck(state, key);
    if (check && !check.failing)
      Object.assign(check, { failing: true, contiguousFailures: 1, firstFailureMs: now, error: 'chain is not done bootstrapping' });
  },
  chain_bootstrapped(state, argument) {
    const key = chainKey(state, argument);
    state.bootstrapped.set(key, true);
    const check = state.checks.get(key);
    if (check) Object.assign(check, { failing: false, contiguousFailures: 0, firstFailureMs: undefined, error: undefined });
  },
  blockchain_status(state, argument) {
    const { chain, status } = record(argument);
    chainNamed(state, chain).status = String(status);
  },
  /** `fee_config_change: { chain: dexalot, minBaseFee: 50000000000 }`: a FeeManager update at the current height. */
  fee_config_change(state, argument, now) {
    const { chain: name, ...fields } = record(argument);
    const chain = chainNamed(state, name);
    if (!chain.evm?.feeConfig) throw new Error(`fee_config_change: ${String(name)} has no fee config`);
    for (const [field, value] of Object.entries(fields)) {
      if (!(field in chain.evm.feeConfig)) throw new Error(`fee_config_change: unknown field "${field}"`);
      chain.evm.feeConfig[field] = Number(value);
    }
    chain.evm.lastChangedAt = chainHeight(chain, now);
  },
};

function resolveNode(state: SimState, argument: unknown): string {
  const nodeId = typeof argument === 'string' ? argument : record(argument).node_id;
  return nodeId === undefined || nodeId === 'self' ? state.nodeId : String(nodeId);
}

function primaryValidator(state: SimState, argument: unknown) {
  const nodeId = resolveNode(state, argument);
  const validator = chainWorld(state).validators.find((candidate) => candidate.nodeId === nodeId);
  if (!validator) throw new Error(`${nodeId} is not a current primary network validator`);
  return validator;
}

function setConnected(state: SimState, argument: unknown, connected: boolean): void {
  const world: ChainWorld = chainWorld(state);
  const nodeId = resolveNode(state, argument);
  primaryValidator(state, argument).connected = connected;
  for (const validator of world.subnets.flatMap((subnet) => subnet.l1Validators)) {
    if (validator.nodeId === nodeId) validator.connected = connected;
  }
}

/** The alias (P, X, C) or blockchain id the node knows a chain by, as /ext/bc/<key> addresses it. */
/** The health check of a tracked L1's chain, registered on first use. */
function subnetChainCheck(state: SimState, blockchainId: string): CheckState | undefined {
  const subnet = chainWorld(state).subnets.find((candidate) => candidate.blockchainId === blockchainId);
  if (!subnet) return undefined;
  const check: CheckState = { failing: false, contiguousFailures: 0, tags: [subnet.subnetId] };
  state.checks.set(blockchainId, check);
  return check;
}

function chainKey(state: SimState, argument: unknown): string {
  const name = typeof argument === 'string' ? argument : String(record(argument).chain ?? '');
  const subnet = chainWorld(state).subnets.find((candidate) => candidate.name === name || candidate.subnetId === name);
  const key = subnet ? subnet.blockchainId : name;
  if (!chainWorld(state).chains.has(key)) throw new Error(`unknown chain "${name}"`);
  return key;
}

function chainNamed(state: SimState, argument: unknown): SimChain {
  const name = typeof argument === 'string' ? argument : String(record(argument).chain ?? '');
  const chain = findChain(chainWorld(state), name);
  if (!chain) throw new Error(`unknown chain "${name}"`);
  return chain;
}
