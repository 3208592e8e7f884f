import { chainHeight, chainOfPath, chainWorld, type SimChain, type SimEvmChain } from '../chain-world.js';
import type { SimState } from '../state.js';
import { RpcFailure, type MethodHandler } from './types.js';

const METHOD_NOT_FOUND = -32601;
const notAvailable = (method: string) => new RpcFailure(`the method ${method} does not exist/is not available`, METHOD_NOT_FOUND);

/** Mainnet activation times (Unix seconds) the chain configs carry. */
const DURANGO = 1_709_740_800;
const ETNA = 1_734_368_400;
const FORTUNA = 1_744_124_400;
const GRANITE = 1_763_568_000;
/** info.upgrades marks an unscheduled upgrade with a year-9999 time. */
const UNSCHEDULED_AFTER_SECONDS = Date.parse('9000-01-01T00:00:00Z') / 1000;

/**
 * The Ethereum-style JSON-RPC of /ext/bc/<id>/rpc (C-Chain coreth, L1 subnet-evm): params are an
 * array, numbers in eth_blockNumber are hex, and a missing method is -32601 without `data`.
 * coreth has no eth_feeConfig or eth_getActiveRulesAt (after Helicon the C-Chain's streaming
 * execution VM registers neither), so the C-Chain answers those with -32601.
 */
export const evmMethods: Record<string, MethodHandler> = {
  eth_blockNumber: (params, state, now) => `0x${chainHeight(evmChain(state, params, 'eth_blockNumber').chain, now).toString(16)}`,
  eth_chainId: (params, state) => `0x${evmChain(state, params, 'eth_chainId').evm.chainId.toString(16)}`,
  eth_feeConfig: (params, state) => {
    const { evm } = evmChain(state, params, 'eth_feeConfig');
    if (!evm.feeConfig) throw notAvailable('eth_feeConfig');
    return { feeConfig: evm.feeConfig, lastChangedAt: evm.lastChangedAt };
  },
  eth_getChainConfig: (params, state) => chainConfig(evmChain(state, params, 'eth_getChainConfig').evm, heliconTimestamp(state)),
  eth_getActiveRulesAt: (params, state, now) => {
    const { evm } = evmChain(state, params, 'eth_getActiveRulesAt');
    if (!evm.activeRulesApi) throw notAvailable('eth_getActiveRulesAt');
    const args = Array.isArray(params.args) ? params.args : [];
    const at = typeof args[0] === 'number' ? args[0] : Math.floor(now / 1000);
    const helicon = heliconTimestamp(state);
    return {
      ethRules: {
        ChainID: evm.chainId,
        IsHomestead: true,
        IsEIP150: true,
        IsEIP155: true,
        IsEIP158: true,
        IsByzantium: true,
        IsBerlin: true,
        IsLondon: true,
        IsShanghai: true,
        IsCancun: true,
      },
      avalancheRules: {
        IsSubnetEVM: true,
        IsDurango: true,
        IsEtna: true,
        IsFortuna: true,
        IsGranite: true,
        IsHelicon: helicon !== undefined && helicon <= at,
      },
      precompiles: activePrecompiles(evm, at),
    };
  },
};

function evmChain(state: SimState, params: Record<string, unknown>, method: string): { chain: SimChain; evm: SimEvmChain } {
  const chain = chainOfPath(chainWorld(state), params.path);
  if (!chain?.evm) throw notAvailable(method);
  return { chain, evm: chain.evm };
}

/** Helicon's activation from info.upgrades, when the network has scheduled it. */
function heliconTimestamp(state: SimState): number | undefined {
  const seconds = Date.parse(String(state.upgrades.heliconTime)) / 1000;
  return Number.isFinite(seconds) && seconds < UNSCHEDULED_AFTER_SECONDS ? seconds : undefined;
}

/** The genesis precompiles, then each upgrade in order, as they stand at `at`. */
function activePrecompiles(evm: SimEvmChain, at: number): Record<string, { timestamp: number }> {
  const active = new Map<string, number>();
  for (const [key, config] of Object.entries(evm.precompiles)) if (config.blockTimestamp <= at) active.set(key, config.blockTimestamp);
  for (const upgrade of evm.precompileUpgrades) {
    for (const [key, config] of Object.entries(upgrade)) {
      if (config.blockTimestamp > at) continue;
      if (config.disable) active.delete(key);
      else active.set(key, config.blockTimestamp);
    }
  }
  return Object.fromEntries([...active].map(([key, timestamp]) => [key, { timestamp }]));
}

/**
 * geth's fork fields (blocks, then shanghaiTime/cancunTime) plus each VM's Avalanche upgrade
 * timestamps: coreth names the older ones `...BlockTimestamp`; subnet-evm merges its fee config,
 * genesis precompiles, initialMinDelayMS and `upgrades`.
 */
function chainConfig(evm: SimEvmChain, helicon: number | undefined): Record<string, unknown> {
  const forks = {
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    muirGlacierBlock: 0,
    berlinBlock: 0,
    londonBlock: 0,
    shanghaiTime: DURANGO,
    cancunTime: ETNA,
  };
  const later = {
    etnaTimestamp: ETNA,
    fortunaTimestamp: FORTUNA,
    graniteTimestamp: GRANITE,
    ...(helicon === undefined ? {} : { heliconTimestamp: helicon }),
  };
  if (!evm.feeConfig) {
    return {
      chainId: evm.chainId,
      ...forks,
      apricotPhase1BlockTimestamp: 1_617_199_200,
      banffBlockTimestamp: 1_666_108_800,
      cortinaBlockTimestamp: 1_682_434_800,
      durangoBlockTimestamp: DURANGO,
      ...later,
    };
  }
  return {
    chainId: evm.chainId,
    ...forks,
    feeConfig: evm.feeConfig,
    subnetEVMTimestamp: 0,
    durangoTimestamp: DURANGO,
    ...later,
    ...(evm.initialMinDelayMs === undefined ? {} : { initialMinDelayMS: evm.initialMinDelayMs }),
    ...Object.fromEntries(Object.entries(evm.precompiles).map(([key, config]) => [key, { blockTimestamp: config.blockTimestamp }])),
    upgrades: evm.precompileUpgrades.length === 0 ? {} : { precompileUpgrades: evm.precompileUpgrades },
  };
}
