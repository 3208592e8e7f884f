import { bargauge, boolTimeline, dashboard, row, sel, stat, table, timeseries } from './builder.mjs';

const REWARD_THRESHOLDS = [
  { color: 'red', value: null },
  { color: 'orange', value: 0.8 },
  { color: 'green', value: 0.9 },
];
const RUNWAY_THRESHOLDS = [
  { color: 'red', value: null },
  { color: 'orange', value: 7 * 86400 },
  { color: 'green', value: 30 * 86400 },
];

export default dashboard({
  uid: 'avaxmon-validators',
  title: 'avaxmon / Validators and L1s',
  description:
    "Watched validators' uptime as the network sees it against each validation's requirement, connection, stake expiry and auto-renewal, L1 balances and runway, fee config, and network-wide aggregates.",
  panels: [
    row('This validator'),
    timeseries({
      title: 'Validator uptime vs its requirement',
      description:
        "Uptime of each watched validator from the view that decides its reward (avaxmon_validator_uptime_ratio; view network = info.uptime for this node, target = the queried node for others), and the requirement of its validation (avaxmon_validator_uptime_requirement_ratio: 0.9 from Helicon, else 0.8). The node's view of itself (view self) is left out: it is always about 100%.",
      unit: 'percentunit',
      max: 1,
      thresholds: REWARD_THRESHOLDS,
      queries: [
        { expr: `avaxmon_validator_uptime_ratio${sel('view!="self"')}`, legend: '{{node_id}} {{subnet}} ({{view}})' },
        { expr: `avaxmon_validator_uptime_requirement_ratio${sel()}`, legend: '{{node_id}} requirement' },
      ],
    }),
    timeseries({
      title: 'Stake voting to reward',
      description:
        'Share of stake that sees this node at or above its requirement and would vote to reward it (avaxmon_node_uptime_rewarding_stake_ratio, info.uptime); alerts below 90% and 75%.',
      unit: 'percentunit',
      max: 1,
      thresholds: [
        { color: 'red', value: null },
        { color: 'orange', value: 0.75 },
        { color: 'green', value: 0.9 },
      ],
      queries: [{ expr: `avaxmon_node_uptime_rewarding_stake_ratio${sel()}`, legend: '{{target}}' }],
    }),
    timeseries({
      title: 'Downtime budget',
      description:
        "How much longer each watched validator can be offline before its uptime this period (or cycle) falls below its requirement, from the view that decides the reward (avaxmon_validator_downtime_budget_seconds); below 0 this period's reward is lost.",
      unit: 's',
      thresholds: [
        { color: 'red', value: null },
        { color: 'orange', value: 0 },
        { color: 'green', value: 86400 },
      ],
      queries: [{ expr: `avaxmon_validator_downtime_budget_seconds${sel()}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    boolTimeline({
      title: 'Connected',
      description:
        'Whether the queried node reports each other watched validator as connected (avaxmon_validator_connected{view="target"}); a node\'s entry about itself is always connected and left out.',
      ok: 'connected',
      fail: 'disconnected',
      queries: [{ expr: `avaxmon_validator_connected${sel('view!="self"')}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    boolTimeline({
      title: 'In the validator set',
      description: 'Whether each watched node id is in the current validator set (avaxmon_validator_active).',
      ok: 'active',
      fail: 'not active',
      queries: [{ expr: `avaxmon_validator_active${sel()}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    bargauge({
      title: 'Stake expiry countdown',
      description:
        'Time left until the staking period (or auto-renew cycle) of each watched validator ends (avaxmon_validator_end_timestamp_seconds); validations that will not renew alert at 7 days and 1 day.',
      unit: 'dtdurations',
      thresholds: [
        { color: 'red', value: null },
        { color: 'orange', value: 86400 },
        { color: 'yellow', value: 7 * 86400 },
        { color: 'green', value: 30 * 86400 },
      ],
      queries: [{ expr: `avaxmon_validator_end_timestamp_seconds${sel()} - time()`, legend: '{{node_id}} {{subnet}}' }],
    }),
    table({
      title: 'Auto-renewal (ACP-236)',
      description:
        'Whether each watched primary validator renews at the end of its cycle (avaxmon_validator_auto_renew: 1 renews, 0 ends), its next cycle length (avaxmon_validator_next_period_seconds; 0 = leaves) and the share of rewards restaked (avaxmon_validator_auto_compound_ratio).',
      unit: 'short',
      rename: { target: 'Target', subnet: 'Subnet', node_id: 'Node id', Value: 'Renews' },
      queries: [{ expr: `avaxmon_validator_auto_renew${sel()}` }],
    }),
    timeseries({
      title: 'Next cycle length',
      description:
        'Next cycle length of each auto-renewed validator (avaxmon_validator_next_period_seconds); 0 means it leaves at the end of this cycle.',
      unit: 's',
      min: 0,
      queries: [{ expr: `avaxmon_validator_next_period_seconds${sel()}`, legend: '{{node_id}}' }],
    }),
    stat({
      title: 'Rewards restaked',
      description:
        "Share of each auto-renewed validator's reward restaked at the end of each cycle (avaxmon_validator_auto_compound_ratio).",
      unit: 'percentunit',
      queries: [{ expr: `avaxmon_validator_auto_compound_ratio${sel()}`, legend: '{{node_id}}' }],
    }),
    row('Stake and delegation'),
    table({
      title: 'Stake, rewards and delegation',
      description: 'Potential reward (AVAX) of each watched primary-network validator (avaxmon_validator_potential_reward_avax).',
      unit: 'suffix: AVAX',
      rename: { target: 'Target', subnet: 'Subnet', node_id: 'Node id', Value: 'Potential reward' },
      queries: [{ expr: `avaxmon_validator_potential_reward_avax${sel()}` }],
    }),
    stat({
      title: 'Delegation fee',
      description: 'Delegation fee of each watched validator (avaxmon_validator_delegation_fee_ratio).',
      unit: 'percentunit',
      w: 6,
      queries: [{ expr: `avaxmon_validator_delegation_fee_ratio${sel()}`, legend: '{{node_id}}' }],
    }),
    timeseries({
      title: 'Delegators',
      description: 'Number of delegators of each watched validator (avaxmon_validator_delegators).',
      unit: 'short',
      w: 9,
      min: 0,
      queries: [{ expr: `avaxmon_validator_delegators${sel()}`, legend: '{{node_id}}' }],
    }),
    timeseries({
      title: 'Stake and delegated stake',
      description:
        'Own stake of each watched primary validator in AVAX (avaxmon_validator_weight_avax) and the stake delegated to it (avaxmon_validator_delegator_weight_avax).',
      unit: 'suffix: AVAX',
      w: 9,
      queries: [
        { expr: `avaxmon_validator_weight_avax${sel()}`, legend: '{{node_id}} own stake' },
        { expr: `avaxmon_validator_delegator_weight_avax${sel()}`, legend: '{{node_id}} delegated' },
      ],
    }),
    row('L1 validators'),
    timeseries({
      title: 'L1 validator balance',
      description: 'Remaining balance of each watched L1 validator, paying the continuous fee (avaxmon_l1_validator_balance_avax).',
      unit: 'suffix: AVAX',
      queries: [{ expr: `avaxmon_l1_validator_balance_avax${sel()}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    timeseries({
      title: 'L1 validator runway',
      description:
        'How long the balance of each active L1 validator lasts if the fee price stayed at its current value (avaxmon_l1_validator_balance_runway_seconds); an upper bound, as the price rises with the number of L1 validators. Warning under 30 days, critical under 7.',
      unit: 's',
      min: 0,
      thresholds: RUNWAY_THRESHOLDS,
      queries: [{ expr: `avaxmon_l1_validator_balance_runway_seconds${sel()}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    boolTimeline({
      title: 'L1 validator active',
      description:
        'Whether each watched L1 validator is active; it is deactivated when its balance reaches zero (avaxmon_l1_validator_active).',
      ok: 'active',
      fail: 'inactive',
      queries: [{ expr: `avaxmon_l1_validator_active${sel()}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    boolTimeline({
      title: 'L1 validator connected',
      description:
        "Whether the target node is connected to each watched validator on its L1, from the L1's validators API (avaxmon_subnet_validator_connected).",
      ok: 'connected',
      fail: 'disconnected',
      queries: [{ expr: `avaxmon_subnet_validator_connected${sel()}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    timeseries({
      title: 'L1 validator uptime',
      description:
        "Each watched validator's uptime on its L1 since its start, as the target node's tracker sees it (avaxmon_subnet_validator_uptime_ratio).",
      unit: 'percentunit',
      min: 0,
      max: 1,
      queries: [{ expr: `avaxmon_subnet_validator_uptime_ratio${sel()}`, legend: '{{node_id}} {{subnet}}' }],
    }),
    timeseries({
      title: 'L1 validator fee',
      description: 'Continuous fee each L1 validator pays, in AVAX per second (avaxmon_l1_validator_fee_price_avax_per_second).',
      unit: 'suffix: AVAX/s',
      queries: [{ expr: `avaxmon_l1_validator_fee_price_avax_per_second${sel()}`, legend: '{{target}}' }],
    }),
    table({
      title: 'EVM fee config',
      description: 'Fee configuration of each watched EVM chain (eth_feeConfig): gas limit and target gas per target block rate.',
      unit: 'short',
      rename: { target: 'Target', chain: 'Chain' },
      queries: [
        { expr: `avaxmon_evm_fee_gas_limit${sel()}`, legend: 'gas limit' },
        { expr: `avaxmon_evm_fee_target_gas${sel()}`, legend: 'target gas' },
      ],
    }),
    timeseries({
      title: 'EVM minimum base fee',
      description: 'Minimum base fee of each watched EVM chain, in wei (avaxmon_evm_fee_min_base_fee_wei).',
      unit: 'suffix: wei',
      queries: [{ expr: `avaxmon_evm_fee_min_base_fee_wei${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    row('Network-wide'),
    stat({
      title: 'Validators (network-wide)',
      description:
        'Validators in each validator set (avaxmon_network_validators) and those below the uptime requirement (avaxmon_network_validators_below_uptime_requirement).',
      unit: 'short',
      w: 6,
      queries: [
        { expr: `max by (subnet) (avaxmon_network_validators${sel()})`, legend: '{{subnet}}' },
        { expr: `max by (subnet) (avaxmon_network_validators_below_uptime_requirement${sel()})`, legend: '{{subnet}} below requirement' },
      ],
    }),
    stat({
      title: 'Stake connected (network-wide)',
      description: 'Share of the stake of each validator set that is connected (avaxmon_network_validator_connected_ratio).',
      unit: 'percentunit',
      w: 6,
      thresholds: REWARD_THRESHOLDS,
      queries: [{ expr: `max by (subnet) (avaxmon_network_validator_connected_ratio${sel()})`, legend: '{{subnet}}' }],
    }),
    timeseries({
      title: 'Validator uptime distribution (network-wide)',
      description: 'Minimum, 10th percentile, median and 90th percentile of the P-Chain uptime of all validators of each set.',
      unit: 'percentunit',
      max: 1,
      queries: [
        { expr: `max by (subnet) (avaxmon_network_validator_uptime_min_ratio${sel()})`, legend: '{{subnet}} min' },
        { expr: `max by (subnet) (avaxmon_network_validator_uptime_p10_ratio${sel()})`, legend: '{{subnet}} p10' },
        { expr: `max by (subnet) (avaxmon_network_validator_uptime_median_ratio${sel()})`, legend: '{{subnet}} median' },
        { expr: `max by (subnet) (avaxmon_network_validator_uptime_p90_ratio${sel()})`, legend: '{{subnet}} p90' },
      ],
    }),
    timeseries({
      title: 'Total stake (network-wide)',
      description:
        'Total and connected stake of each validator set, in AVAX (avaxmon_network_validator_weight_avax, avaxmon_network_validator_connected_weight_avax).',
      unit: 'suffix: AVAX',
      queries: [
        { expr: `max by (subnet) (avaxmon_network_validator_weight_avax${sel()})`, legend: '{{subnet}} total' },
        { expr: `max by (subnet) (avaxmon_network_validator_connected_weight_avax${sel()})`, legend: '{{subnet}} connected' },
      ],
    }),
    timeseries({
      title: 'Validators ending within 24h (network-wide)',
      description:
        'Validators of each set whose staking period ends within the next 24 hours (avaxmon_network_validators_ending_within_24h).',
      unit: 'short',
      min: 0,
      queries: [{ expr: `max by (subnet) (avaxmon_network_validators_ending_within_24h${sel()})`, legend: '{{subnet}}' }],
    }),
  ],
});
