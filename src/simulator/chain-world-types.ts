/** The shapes of the simulated chain world (see chain-world.ts); a leaf, so state.ts can hold a world. */
export interface SimValidator {
  nodeId: string;
  txId: string;
  startTime: number;
  endTime: number;
  weightNavax: number;
  uptimePercent: number;
  connected: boolean;
  delegationFeePercent: number;
  potentialRewardNavax: number;
  delegatorCount: number;
  delegatorWeightNavax: number;
}

export interface SimSubnetStaker {
  nodeId: string;
  txId: string;
  startTime: number;
  endTime: number;
  weight: number;
}

export interface SimL1Validator {
  nodeId: string;
  validationId: string;
  weight: number;
  startTime: number;
  /** Balance in nAVAX at `balanceAtMs`; it drains at the fee price from then on. */
  balanceNavax: number;
  balanceAtMs: number;
  connected: boolean;
  uptimePercent: number;
}

export interface SimEvmChain {
  chainId: number;
  /** Absent on the C-Chain: coreth has no eth_feeConfig. */
  feeConfig?: Record<string, number>;
  lastChangedAt: number;
  /** Precompile configs in the genesis chain config, by key (`feeManagerConfig`). */
  precompiles: Record<string, { blockTimestamp: number }>;
  /** `upgrades.precompileUpgrades` of the chain config, in activation order; `disable` turns one off. */
  precompileUpgrades: Array<Record<string, { blockTimestamp: number; disable?: boolean }>>;
  /** subnet-evm's ACP-226 genesis block delay (initialMinDelayMS); absent on coreth. */
  initialMinDelayMs?: number;
  /** Whether eth_getActiveRulesAt exists (subnet-evm only). */
  activeRulesApi: boolean;
}

export interface SimChain {
  height: number;
  sinceMs: number;
  blocksPerSecond: number;
  stalled: boolean;
  status: string;
  evm?: SimEvmChain;
}

export interface SimSubnet {
  name: string;
  subnetId: string;
  blockchainId: string;
  stakers: SimSubnetStaker[];
  l1Validators: SimL1Validator[];
}

export interface ChainWorld {
  validators: SimValidator[];
  /** Validators removed by a scenario, kept so they can rejoin. */
  departed: Map<string, SimValidator>;
  subnets: SimSubnet[];
  /** By alias (P, X, C) or blockchain id. */
  chains: Map<string, SimChain>;
  /** The global L1 validator fee, nAVAX per second per active L1 validator. */
  feePrice: number;
  feeExcess: number;
  supplyNavax: bigint;
}
