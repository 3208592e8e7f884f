import { dashboard, jobSel, row, sel, stat, table, timeseries } from './builder.mjs';

// The Metrics API and Data API series are network-wide, so they carry chain_id (or node_id), not target.
const chain = (extra = '') => jobSel(`chain_id=~"$chain_id"${extra ? `,${extra}` : ''}`);

export default dashboard({
  uid: 'avaxmon-chain-activity',
  title: 'avaxmon / Chain activity',
  description:
    "The Metrics API's series per chain, the Data API's balances and delegations, and the chain fees and supply the nodes report.",
  extraVariables: [
    { name: 'chain_id', label: 'Chain id', query: 'label_values(avaxmon_chain_transactions{job=~"$job",instance=~"$instance"}, chain_id)' },
  ],
  panels: [
    row('Metrics API'),
    timeseries({
      title: 'Transactions',
      description: 'Transactions per interval on each chain, from the Metrics API (avaxmon_chain_transactions).',
      unit: 'short',
      queries: [{ expr: `avaxmon_chain_transactions${chain()}`, legend: '{{chain_id}} per {{interval}}' }],
    }),
    timeseries({
      title: 'Transactions per second',
      description:
        'Average and maximum transactions per second of each chain, from the Metrics API (avaxmon_chain_avg_tps, avaxmon_chain_max_tps).',
      unit: 'suffix: tx/s',
      queries: [
        { expr: `avaxmon_chain_avg_tps${chain()}`, legend: '{{chain_id}} avg ({{interval}})' },
        { expr: `avaxmon_chain_max_tps${chain()}`, legend: '{{chain_id}} max ({{interval}})' },
      ],
    }),
    timeseries({
      title: 'Active addresses and senders',
      description: 'Active addresses and active senders per interval on each chain, from the Metrics API.',
      unit: 'short',
      queries: [
        { expr: `avaxmon_chain_active_addresses${chain()}`, legend: '{{chain_id}} addresses ({{interval}})' },
        { expr: `avaxmon_chain_active_senders${chain()}`, legend: '{{chain_id}} senders ({{interval}})' },
      ],
    }),
    timeseries({
      title: 'Gas used',
      description: 'Gas used per interval, and average and maximum gas per second, on each chain (Metrics API).',
      unit: 'short',
      queries: [
        { expr: `avaxmon_chain_gas_used${chain()}`, legend: '{{chain_id}} used ({{interval}})' },
        { expr: `avaxmon_chain_avg_gas_per_second${chain()}`, legend: '{{chain_id}} avg gas/s' },
        { expr: `avaxmon_chain_max_gas_per_second${chain()}`, legend: '{{chain_id}} max gas/s' },
      ],
    }),
    timeseries({
      title: 'Gas price',
      description: 'Average and maximum gas price on each chain, in wei (Metrics API).',
      unit: 'suffix: wei',
      queries: [
        { expr: `avaxmon_chain_avg_gas_price_wei${chain()}`, legend: '{{chain_id}} avg' },
        { expr: `avaxmon_chain_max_gas_price_wei${chain()}`, legend: '{{chain_id}} max' },
      ],
    }),
    timeseries({
      title: 'Fees paid',
      description: 'Fees paid per interval on each chain, in wei (avaxmon_chain_fees_paid_wei).',
      unit: 'suffix: wei',
      queries: [{ expr: `avaxmon_chain_fees_paid_wei${chain()}`, legend: '{{chain_id}} ({{interval}})' }],
    }),
    timeseries({
      title: 'Contracts',
      description: 'Contracts created and distinct deployers per interval on each chain (Metrics API).',
      unit: 'short',
      queries: [
        { expr: `avaxmon_chain_contracts_created${chain()}`, legend: '{{chain_id}} created ({{interval}})' },
        { expr: `avaxmon_chain_contract_deployers${chain()}`, legend: '{{chain_id}} deployers ({{interval}})' },
      ],
    }),
    timeseries({
      title: 'Cumulative totals',
      description: 'Cumulative transactions, addresses, contracts and deployers of each chain since genesis (Metrics API).',
      unit: 'short',
      queries: [
        { expr: `avaxmon_chain_cumulative_transactions${chain()}`, legend: '{{chain_id}} transactions' },
        { expr: `avaxmon_chain_cumulative_addresses${chain()}`, legend: '{{chain_id}} addresses' },
        { expr: `avaxmon_chain_cumulative_contracts${chain()}`, legend: '{{chain_id}} contracts' },
        { expr: `avaxmon_chain_cumulative_deployers${chain()}`, legend: '{{chain_id}} deployers' },
      ],
    }),
    timeseries({
      title: 'Metrics API data age',
      description:
        'Age of the newest Metrics API data point of each series (avaxmon_chain_metric_timestamp_seconds); intervals close once a day or hour.',
      unit: 's',
      w: 24,
      queries: [{ expr: `time() - avaxmon_chain_metric_timestamp_seconds${chain()}`, legend: '{{chain_id}} {{metric}} ({{interval}})' }],
    }),
    row('Data API'),
    table({
      title: 'Watched address balances',
      description: 'Native balance of each watched address, from the Data API (avaxmon_address_native_balance).',
      unit: 'none',
      rename: { chain_id: 'Chain id', name: 'Address', Value: 'Balance' },
      queries: [{ expr: `avaxmon_address_native_balance${jobSel()}` }],
    }),
    table({
      title: 'Watched address balance value',
      description:
        'Value of the native balance of each watched address in a currency, from the Data API (avaxmon_address_native_balance_value).',
      unit: 'none',
      rename: { chain_id: 'Chain id', name: 'Address', currency: 'Currency', Value: 'Value' },
      queries: [{ expr: `avaxmon_address_native_balance_value${jobSel()}` }],
    }),
    timeseries({
      title: 'Delegations',
      description: 'Delegators and delegated AVAX of each watched validator by delegation status, from the Data API.',
      unit: 'short',
      queries: [
        { expr: `avaxmon_delegators${jobSel()}`, legend: '{{node_id}} delegators ({{status}})' },
        { expr: `avaxmon_delegated_avax${jobSel()}`, legend: '{{node_id}} AVAX ({{status}})' },
      ],
    }),
    timeseries({
      title: 'Delegation rewards',
      description:
        'Gross and net (after the delegation fee) estimated rewards of the active delegations to each watched validator, in AVAX (Data API).',
      unit: 'suffix: AVAX',
      queries: [
        { expr: `avaxmon_delegation_active_gross_reward_avax${jobSel()}`, legend: '{{node_id}} gross' },
        { expr: `avaxmon_delegation_active_net_reward_avax${jobSel()}`, legend: '{{node_id}} net' },
      ],
    }),
    row('Fees and supply'),
    table({
      title: 'Transaction fees',
      description: 'Static transaction fees each node reports, in AVAX (avaxmon_chain_tx_fee_avax).',
      unit: 'suffix: AVAX',
      rename: { target: 'Target', chain: 'Chain', fee: 'Fee', Value: 'AVAX' },
      queries: [{ expr: `avaxmon_chain_tx_fee_avax${sel()}` }],
    }),
    stat({
      title: 'Current supply',
      description: 'Current AVAX supply as the P-Chain reports it (avaxmon_current_supply_avax).',
      unit: 'suffix: AVAX',
      queries: [{ expr: `max(avaxmon_current_supply_avax${sel()})`, legend: 'supply' }],
    }),
  ],
});
