/**
 * The node collectors' names: the config keys under `targets[].collectors` and the `collector` label.
 * A leaf module, so the config schema can validate names without importing the collectors.
 */
export const collectorNames = [
  'health',
  'node_info',
  'peers',
  'uptime',
  'upgrades',
  'validators',
  'l1_validators',
  'fee_config',
  'chain_progress',
] as const;

export type CollectorName = (typeof collectorNames)[number];
