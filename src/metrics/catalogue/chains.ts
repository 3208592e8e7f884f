import { gauge } from '../metric-desc.js';

/**
 * Per-chain outcome and chain-config metrics of the chain_progress and fee_config collectors that
 * came with per-chain isolation (their older metrics live in validators.ts).
 */
const evm = ['target', 'chain'];

export const chainUpMetrics = [
  gauge(
    'avaxmon_chain_up',
    "Whether the chain answered this chain_progress run (0: a call failed, e.g. 503 while it bootstraps; its series are dropped, the other chains' stay).",
    evm,
  ),
] as const;

export const evmConfigMetrics = [
  gauge(
    'avaxmon_evm_config_up',
    "Whether the EVM chain answered this fee_config run (0: a call failed; its series are dropped, the other chains' stay). A method the chain lacks is no failure.",
    evm,
  ),
  gauge(
    'avaxmon_evm_initial_min_delay_seconds',
    'ACP-226 minimum block delay of the genesis block (subnet-evm eth_getChainConfig initialMinDelayMS); absent when unset (the ACP-226 default applies).',
    evm,
  ),
] as const;

export const chainsCatalogue = [...chainUpMetrics, ...evmConfigMetrics];
