import { chainHeight, chainOfPath, chainWorld, type SimChain, type SimEvmChain } from '../chain-world.js';
import type { SimState } from '../state.js';
import { RpcFailure, type MethodHandler } from './types.js';

const METHOD_NOT_FOUND = -32601;
const notAvailable = (method: string) => new RpcFailure(`the method ${method} does not exist/is not available`, METHOD_NOT_FOUND);

/**
 * The Ethereum-style JSON-RPC of /ext/bc/<id>/rpc (C-Chain coreth, L1 subnet-evm): params are an
 * array, numbers in eth_blockNumber are hex, and a missing method is -32601 without `data`.
 * coreth has no eth_feeConfig or eth_getActiveRulesAt, so the C-Chain answers those with -32601.
 */
export const evmMethods: Record<string, MethodHandler> = {
  eth_blockNumber: (params, state, now) => `0x${chainHeight(evmChain(state, params, 'eth_blockNumber').chain, now).toString(16)}`,
  eth_chainId: (params, state) => `0x${evmChain(state, params, 'eth_chainId').evm.chainId.toString(16)}`,
  eth_feeConfig: (params, state) => {
    const { evm } = evmChain(state, params, 'eth_feeConfig');
    if (!evm.feeConfig) throw notAvailable('eth_feeConfig');
    return { feeConfig: evm.feeConfig, lastChangedAt: evm.lastChangedAt };
  },
  eth_getChainConfig: (params, state) => chainConfig(evmChain(state, params, 'eth_getChainConfig').evm),
  eth_getActiveRulesAt: (params, state, now) => {
    const { evm } = evmChain(state, params, 'eth_getActiveRulesAt');
    if (!evm.activeRulesApi) throw notAvailable('eth_getActiveRulesAt');
    const args = Array.isArray(params.args) ? params.args : [];
    const at = typeof args[0] === 'number' ? args[0] : Math.floor(now / 1000);
    return {
      ethRules: { ChainID: evm.chainId, IsHomestead: true, IsEIP150: true, IsEIP155: true, IsEIP158: true, IsByzantium: true, IsBerlin: true, IsLondon: true, IsShanghai: true, IsCancun: true },
      avalancheRules: { IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsFortuna: true, IsGranite: true, IsHelicon: false },
      precompiles: Object.fromEntries(
        Object.entries(evm.precompiles)
          .filter(([, config]) => config.blockTimestamp <= at)
          .map(([key, config]) => [key, { timestamp: config.blockTimestamp }]),
      ),
    };
  },
};

function evmChain(state: SimState, params: Record<string, unknown>, method: string): { chain: SimChain; evm: SimEvmChain } {
  const chain = chainOfPath(chainWorld(state), params.path);
  if (!chain?.evm) throw notAvailable(method);
  return { chain, evm: chain.evm };
}

function chainConfig(evm: SimEvmChain): Record<string, unknown> {
  const forks = { homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0, constantinopleBlock: 0, petersburgBlock: 0, istanbulBlock: 0, muirGlacierBlock: 0, berlinBlock: 0, londonBlock: 0 };
  // coreth answers the plain geth ChainConfig; subnet-evm merges its fee config, upgrades and precompiles.
  if (!evm.feeConfig) return { chainId: evm.chainId, ...forks, durangoTimestamp: 1_709_740_800, etnaTimestamp: 1_734_368_400 };
  return {
    chainId: evm.chainId,
    ...forks,
    feeConfig: evm.feeConfig,
    subnetEVMTimestamp: 0,
    durangoTimestamp: 1_709_740_800,
    etnaTimestamp: 1_734_368_400,
    ...Object.fromEntries(Object.entries(evm.precompiles).map(([key, config]) => [key, { blockTimestamp: config.blockTimestamp }])),
    upgrades: {},
  };
}
