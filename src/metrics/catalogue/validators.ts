import { gauge } from '../metric-desc.js';

/** Metrics of the validator and chain collectors: validators, l1_validators, fee_config, chain_progress. */
const perValidator = ['target', 'subnet', 'node_id'];
/** `view`: network (other validators' view of this node, info.uptime), self (its own entry), target (the queried node's view of another). */
const perValidatorView = ['target', 'subnet', 'node_id', 'view'];
const network = ['target', 'subnet'];
const evm = ['target', 'chain'];

export const validatorMetrics = [
  gauge(
    'avaxmon_node_role',
    'What the node watched as `self` is, 1 for its role: primary_validator (in the Primary Network set), l1_validator (only in a configured L1 or subnet set, ACP-77), or api (validates nothing: an API or RPC node).',
    ['target', 'role'],
  ),
  gauge(
    'avaxmon_validator_active',
    'Whether a watched node is in the current validator set of the subnet (an L1 validator also needs a balance); 0, never absent, when it is not.',
    perValidator,
  ),
  gauge(
    'avaxmon_validator_uptime_ratio',
    "A primary network validator's uptime since the start of its period or cycle, by view: network (the uptime at least 75% of the connected stake sees, from info.peers observedUptime; decides this node's reward), self (its own entry), target (the queried node's view of another validator).",
    perValidatorView,
  ),
  gauge(
    'avaxmon_validator_connected',
    'Whether the queried node is connected to a primary network validator (view self: the node about itself, always 1; target: about another).',
    perValidatorView,
  ),
  gauge(
    'avaxmon_validator_uptime_requirement_ratio',
    'Uptime the validation (or auto-renew cycle) needs for its reward: 0.9 when it starts at or after heliconTime (ACP-267), else 0.8, unless overridden by config.',
    perValidator,
  ),
  gauge(
    'avaxmon_validator_weight_avax',
    "A primary network validator's own stake in AVAX (restaked rewards included for an auto-renewed validator).",
    perValidator,
  ),
  gauge(
    'avaxmon_validator_consensus_weight',
    'Unitless weight of a validator on a permissioned subnet or L1 (platform.getCurrentValidators).',
    perValidator,
  ),
  gauge(
    'avaxmon_validator_auto_renew',
    'Whether a primary network validator is auto-renewed (ACP-236) with a next cycle; 0 for a fixed period or a next period of 0 (it leaves at the end of this cycle).',
    perValidator,
  ),
  gauge(
    'avaxmon_validator_next_period_seconds',
    "An auto-renewed validator's next cycle length (nextPeriod); 0 means it leaves at the end of the current cycle.",
    perValidator,
  ),
  gauge(
    'avaxmon_validator_auto_compound_ratio',
    "Share of an auto-renewed validator's reward restaked at the end of each cycle (autoCompoundRewardShares / 1e6).",
    perValidator,
  ),
  gauge('avaxmon_validator_start_timestamp_seconds', 'Unix time the validator started validating.', perValidator),
  gauge(
    'avaxmon_validator_end_timestamp_seconds',
    'Unix time the staking period ends (absent for L1 validators, which have no end).',
    perValidator,
  ),
  gauge(
    'avaxmon_validator_potential_reward_avax',
    'Reward, in AVAX, the validator earns at the end of its staking period if its uptime meets the requirement.',
    perValidator,
  ),
  gauge('avaxmon_validator_delegation_fee_ratio', "Share of delegators' rewards the validator keeps.", perValidator),
  gauge('avaxmon_validator_delegators', 'Number of delegations to the validator.', perValidator),
  gauge('avaxmon_validator_delegator_weight_avax', 'Stake, in AVAX, delegated to the validator.', perValidator),
  gauge(
    'avaxmon_validator_downtime_budget_seconds',
    "Further downtime the validator can take before its uptime over the period (or auto-renew cycle) falls below its requirement, from the view that decides the reward (network for this node: the uptime at least 75% of the connected stake sees; target for others); negative: this period's reward is lost.",
    perValidatorView,
  ),
  gauge(
    'avaxmon_validator_downtime_allowance_seconds',
    'All the downtime the period (or auto-renew cycle) allows before the uptime falls below the requirement: (1 − requirement)·(end − start).',
    perValidator,
  ),
  gauge('avaxmon_l1_validator_active', 'Whether an L1 validator is active (listed with a balance above 0).', perValidator),
  gauge(
    'avaxmon_l1_validator_balance_avax',
    'Remaining P-Chain balance of an L1 validator, in AVAX, from which the continuous fee is paid.',
    perValidator,
  ),
  gauge('avaxmon_l1_validator_weight', 'Weight of an L1 validator.', perValidator),
  gauge('avaxmon_l1_validator_info', 'Validation id of an L1 validator; constant 1.', ['target', 'subnet', 'node_id', 'validation_id']),
  gauge(
    'avaxmon_l1_validator_balance_runway_seconds',
    'Seconds until an active L1 validator balance runs out if the fee price stayed at its current value (balance / price); the price rises with the number of L1 validators, so read it as an upper bound.',
    perValidator,
  ),
  gauge(
    'avaxmon_l1_validator_fee_price_avax_per_second',
    'Continuous fee each active L1 validator pays, in AVAX per second (platform.getValidatorFeeState price).',
    ['target'],
  ),
  gauge('avaxmon_network_validators', 'Number of validators in the whole set of the subnet (network_wide mode).', network),
  gauge('avaxmon_network_validator_weight_avax', 'Total stake of the set in AVAX, delegations included (network_wide mode).', network),
  gauge(
    'avaxmon_network_validator_connected_weight_avax',
    'Stake in AVAX, delegations included, of validators the node is connected to (network_wide mode).',
    network,
  ),
  gauge(
    'avaxmon_network_validator_connected_ratio',
    'Stake-weighted share of the set the node is connected to (network_wide mode).',
    network,
  ),
  gauge(
    'avaxmon_network_validator_uptime_min_ratio',
    'Lowest validator uptime in the set as the node sees it (network_wide mode).',
    network,
  ),
  gauge('avaxmon_network_validator_uptime_p10_ratio', '10th percentile of validator uptime in the set (network_wide mode).', network),
  gauge('avaxmon_network_validator_uptime_median_ratio', 'Median validator uptime in the set (network_wide mode).', network),
  gauge('avaxmon_network_validator_uptime_p90_ratio', '90th percentile of validator uptime in the set (network_wide mode).', network),
  gauge(
    'avaxmon_network_validators_below_uptime_requirement',
    'Validators whose uptime is below the reward requirement (network_wide mode).',
    network,
  ),
  gauge(
    'avaxmon_network_validators_ending_within_24h',
    'Validators whose staking period ends within the next 24 hours (network_wide mode).',
    network,
  ),
] as const;

export const subnetValidatorMetrics = [
  gauge(
    'avaxmon_subnet_validator_active',
    "Whether the L1 chain's validators API reports a watched node active; 0 when the node is not listed.",
    perValidator,
  ),
  gauge(
    'avaxmon_subnet_validator_is_l1',
    'Whether the validator is an L1 (ACP-77) validator rather than a legacy subnet validator.',
    perValidator,
  ),
  gauge('avaxmon_subnet_validator_connected', 'Whether the node is connected to the validator on this L1.', perValidator),
  gauge(
    'avaxmon_subnet_validator_uptime_seconds',
    "Seconds the validator has been up on this L1, as this node's tracker counts it.",
    perValidator,
  ),
  gauge(
    'avaxmon_subnet_validator_uptime_ratio',
    "The validator's uptime on this L1 since its start, as this node's tracker sees it.",
    perValidator,
  ),
  gauge('avaxmon_subnet_validator_weight', 'Weight of the validator on this L1 (validators API).', perValidator),
  gauge('avaxmon_subnet_validator_start_timestamp_seconds', 'Unix time the validator started validating the L1.', perValidator),
  gauge(
    'avaxmon_subnet_validators_api_available',
    "Whether the L1 chain's validators API answers (0: the node has no such chain or API).",
    ['target', 'subnet'],
  ),
] as const;

export const feeConfigMetrics = [
  gauge('avaxmon_evm_fee_gas_limit', 'Block gas limit of the fee config (eth_feeConfig gasLimit).', evm),
  gauge('avaxmon_evm_fee_target_block_rate_seconds', 'Target seconds between blocks (eth_feeConfig targetBlockRate).', evm),
  gauge('avaxmon_evm_fee_min_base_fee_wei', 'Minimum base fee in wei (eth_feeConfig minBaseFee).', evm),
  gauge('avaxmon_evm_fee_target_gas', 'Target gas per 10-second window (eth_feeConfig targetGas).', evm),
  gauge('avaxmon_evm_fee_base_fee_change_denominator', 'Base fee change denominator (eth_feeConfig baseFeeChangeDenominator).', evm),
  gauge('avaxmon_evm_fee_min_block_gas_cost', 'Minimum block gas cost (eth_feeConfig minBlockGasCost).', evm),
  gauge('avaxmon_evm_fee_max_block_gas_cost', 'Maximum block gas cost (eth_feeConfig maxBlockGasCost).', evm),
  gauge('avaxmon_evm_fee_block_gas_cost_step', 'Block gas cost step (eth_feeConfig blockGasCostStep).', evm),
  gauge(
    'avaxmon_evm_fee_config_last_changed_block',
    'Block at which the fee config last changed through the FeeManager precompile; 0 if never.',
    evm,
  ),
  gauge('avaxmon_evm_chain_id', 'EVM chain id (eth_getChainConfig chainId).', evm),
  gauge(
    'avaxmon_evm_precompile_configured',
    'Whether a precompile is enabled by the chain config: 1 when its latest entry (genesis or upgrade) enables it, 0 once its latest upgrade disables it.',
    ['target', 'chain', 'precompile'],
  ),
  gauge('avaxmon_evm_precompile_active', 'Whether a precompile is active at the head block (eth_getActiveRulesAt).', [
    'target',
    'chain',
    'precompile',
  ]),
  gauge('avaxmon_evm_precompile_activation_timestamp_seconds', 'Unix time an active precompile activated.', [
    'target',
    'chain',
    'precompile',
  ]),
  gauge('avaxmon_evm_rule_active', 'Whether a fork rule (IsLondon, IsDurango, ...) is active at the head block (eth_getActiveRulesAt).', [
    'target',
    'chain',
    'rule',
  ]),
  gauge('avaxmon_evm_method_available', 'Whether an EVM RPC method answers on this chain (0: the method does not exist there, -32601).', [
    'target',
    'chain',
    'method',
  ]),
] as const;

export const chainProgressMetrics = [
  gauge('avaxmon_chain_height', 'Last accepted height of a chain (platform.getHeight, avm.getHeight, eth_blockNumber).', [
    'target',
    'chain',
  ]),
  gauge(
    'avaxmon_chain_last_progress_timestamp_seconds',
    'Unix time avaxmon last saw the chain height change (first sighting counts); a stalled chain falls behind now.',
    ['target', 'chain'],
  ),
  gauge('avaxmon_blockchain_status', 'Status of a blockchain as the node reports it (platform.getBlockchainStatus), as a 0/1 state set.', [
    'target',
    'chain',
    'status',
  ]),
  gauge('avaxmon_current_supply_avax', 'Current AVAX supply (platform.getCurrentSupply), an upper bound on the circulating supply.', [
    'target',
  ]),
  gauge(
    'avaxmon_chain_height_available',
    'Whether an EVM chain answers eth_blockNumber (0: the node has no such chain RPC, or the chain is not EVM).',
    ['target', 'chain'],
  ),
  gauge('avaxmon_chain_tx_fee_avax', 'Static transaction fees of the X-Chain in AVAX (avm.getTxFee): fee="tx" or "create_asset".', [
    'target',
    'chain',
    'fee',
  ]),
] as const;

export const validatorsCatalogue = [...validatorMetrics, ...subnetValidatorMetrics, ...feeConfigMetrics, ...chainProgressMetrics];
