import { gauge } from '../metric-desc.js';

/** Shared by every collector that makes calls besides its main one (src/collectors/side-call.ts). */
export const callUpMetrics = [
  gauge(
    'avaxmon_collector_call_up',
    'Whether a call a collector makes besides its main one answered in this run (validators: info.upgrades, platform.getValidatorFeeState; upgrades: info.acps; chain_progress: platform.getBlockchainStatus, platform.getCurrentSupply, avm.getTxFee; health: readiness, liveness; peers: info.getNodeVersion); at 0 only the series that depend on it are left out.',
    ['target', 'collector', 'method'],
  ),
] as const;
