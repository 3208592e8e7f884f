import type { EvmRpcClient } from '../clients/evm-rpc.js';
import type { TargetConfig } from '../config/schema.js';

/** A chain as the collectors see it: its `chain` label and the id or alias the node knows it by. */
export interface WatchedChain {
  readonly label: string;
  readonly id: string;
}

/** An EVM chain and the URL of its JSON-RPC. */
export interface EvmChain {
  readonly label: string;
  readonly url: string;
}

const PRIMARY_CHAINS = ['P', 'X', 'C'];

/** The primary chains, each configured L1 chain (labelled by subnet name) and the target's extra `chains`. */
export function watchedChains(target: TargetConfig): WatchedChain[] {
  const chains = PRIMARY_CHAINS.map((alias) => ({ label: alias, id: alias }));
  for (const subnet of target.subnets) if (subnet.blockchain_id) chains.push({ label: subnet.name, id: subnet.blockchain_id });
  for (const chain of target.chains) chains.push({ label: chain, id: chain });
  return chains;
}

/** The C-Chain and every configured L1 chain, at its rpc_url or the target's /ext/bc/<id>/rpc. */
export function evmChains(target: TargetConfig, client: EvmRpcClient): EvmChain[] {
  const chains = [{ label: 'C', url: client.defaultUrl('C') }];
  for (const subnet of target.subnets) {
    if (subnet.blockchain_id) chains.push({ label: subnet.name, url: subnet.rpc_url ?? client.defaultUrl(subnet.blockchain_id) });
  }
  return chains;
}
