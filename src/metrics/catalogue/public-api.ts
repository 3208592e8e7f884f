import type { MetricsApiMetric } from '../../clients/metrics-api.js';
import { gauge, type MetricDesc } from '../metric-desc.js';

const CHAIN = ['chain_id', 'interval'];
const NEWEST = 'Newest complete data point of the Metrics API';

/** One gauge per Metrics API metric, named for what it counts, in the unit the API reports. */
export const chainMetricGauges: Readonly<Record<MetricsApiMetric, MetricDesc>> = {
  activeAddresses: gauge(
    'avaxmon_chain_active_addresses',
    `${NEWEST}: distinct addresses sending or receiving in the interval (activeAddresses).`,
    CHAIN,
  ),
  activeSenders: gauge('avaxmon_chain_active_senders', `${NEWEST}: distinct sending addresses in the interval (activeSenders).`, CHAIN),
  cumulativeTxCount: gauge(
    'avaxmon_chain_cumulative_transactions',
    `${NEWEST}: transactions from genesis to 24h after the point (cumulativeTxCount).`,
    CHAIN,
  ),
  cumulativeAddresses: gauge(
    'avaxmon_chain_cumulative_addresses',
    `${NEWEST}: addresses seen from genesis to 24h after the point (cumulativeAddresses).`,
    CHAIN,
  ),
  cumulativeContracts: gauge(
    'avaxmon_chain_cumulative_contracts',
    `${NEWEST}: contracts created from genesis to the point (cumulativeContracts).`,
    CHAIN,
  ),
  cumulativeDeployers: gauge(
    'avaxmon_chain_cumulative_deployers',
    `${NEWEST}: distinct contract deployers from genesis to 24h after the point (cumulativeDeployers).`,
    CHAIN,
  ),
  contracts: gauge('avaxmon_chain_contracts_created', `${NEWEST}: contracts created in the interval (contracts).`, CHAIN),
  deployers: gauge('avaxmon_chain_contract_deployers', `${NEWEST}: distinct contract deployers in the interval (deployers).`, CHAIN),
  gasUsed: gauge('avaxmon_chain_gas_used', `${NEWEST}: gas used in the interval (gasUsed).`, CHAIN),
  txCount: gauge('avaxmon_chain_transactions', `${NEWEST}: transactions in the interval (txCount).`, CHAIN),
  avgGps: gauge('avaxmon_chain_avg_gas_per_second', `${NEWEST}: average gas per second over the day (avgGps).`, CHAIN),
  maxGps: gauge('avaxmon_chain_max_gas_per_second', `${NEWEST}: highest per-block gas per second of the day (maxGps).`, CHAIN),
  avgTps: gauge('avaxmon_chain_avg_tps', `${NEWEST}: average transactions per second over the day (avgTps).`, CHAIN),
  maxTps: gauge('avaxmon_chain_max_tps', `${NEWEST}: highest per-block transactions per second of the day (maxTps).`, CHAIN),
  avgGasPrice: gauge(
    'avaxmon_chain_avg_gas_price_wei',
    `${NEWEST}: average gas price from receipts, in the smallest native unit (avgGasPrice).`,
    CHAIN,
  ),
  maxGasPrice: gauge(
    'avaxmon_chain_max_gas_price_wei',
    `${NEWEST}: highest gas price from receipts, in the smallest native unit (maxGasPrice).`,
    CHAIN,
  ),
  feesPaid: gauge('avaxmon_chain_fees_paid_wei', `${NEWEST}: gas used times gas price, in the smallest native unit (feesPaid).`, CHAIN),
  avg_tps: gauge('avaxmon_chain_avg_tps_v1', `${NEWEST} v1 route /v1/avg_tps: average transactions per second over the day.`, CHAIN),
};

export const metricsApiMetrics: readonly MetricDesc[] = [
  ...Object.values(chainMetricGauges),
  gauge(
    'avaxmon_chain_metric_timestamp_seconds',
    'Start of the interval of the exported (newest complete) Metrics API data point. Collected on a schedule, not on scrape.',
    ['chain_id', 'metric', 'interval'],
  ),
];

export const dataApiMetrics: readonly MetricDesc[] = [
  gauge('avaxmon_delegators', 'Delegations to a watched validator by delegationStatus (Data API List delegators).', ['node_id', 'status']),
  gauge('avaxmon_delegated_avax', 'AVAX delegated to a watched validator by delegationStatus (sum of amountDelegated).', [
    'node_id',
    'status',
  ]),
  gauge('avaxmon_delegation_active_gross_reward_avax', 'Gross reward, in AVAX, of the active delegations to a watched validator.', [
    'node_id',
  ]),
  gauge(
    'avaxmon_delegation_active_net_reward_avax',
    'Net reward (after the delegation fee), in AVAX, of the active delegations to a watched validator.',
    ['node_id'],
  ),
  gauge('avaxmon_address_native_balance', "Native token balance of a watched address, in whole tokens (scaled by the token's decimals).", [
    'chain_id',
    'name',
  ]),
  gauge(
    'avaxmon_address_native_balance_value',
    'Value of the native balance of a watched address in the configured currency, as priced by the Data API.',
    ['chain_id', 'name', 'currency'],
  ),
];

export const publicApiMetrics: readonly MetricDesc[] = [...metricsApiMetrics, ...dataApiMetrics];
