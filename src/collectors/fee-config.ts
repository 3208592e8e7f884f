import { EvmRpcClient } from '../clients/evm-rpc.js';
import { FieldReader } from '../clients/parse.js';
import { evmConfigMetrics } from '../metrics/catalogue/chains.js';
import { feeConfigMetrics } from '../metrics/catalogue/validators.js';
import { evmChains, type EvmChain } from './chains.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { callOptional, type OptionalMethod } from './optional-method.js';
import { collectPerChain } from './per-chain.js';

/** eth_feeConfig fields and the metric each becomes. */
const FEE_FIELDS: ReadonlyArray<[string, string]> = [
  ['gasLimit', 'avaxmon_evm_fee_gas_limit'],
  ['targetBlockRate', 'avaxmon_evm_fee_target_block_rate_seconds'],
  ['minBaseFee', 'avaxmon_evm_fee_min_base_fee_wei'],
  ['targetGas', 'avaxmon_evm_fee_target_gas'],
  ['baseFeeChangeDenominator', 'avaxmon_evm_fee_base_fee_change_denominator'],
  ['minBlockGasCost', 'avaxmon_evm_fee_min_block_gas_cost'],
  ['maxBlockGasCost', 'avaxmon_evm_fee_max_block_gas_cost'],
  ['blockGasCostStep', 'avaxmon_evm_fee_block_gas_cost_step'],
];

/** subnet-evm's stateful precompiles; reported 0 when not configured or not active. */
const KNOWN_PRECOMPILES = [
  'contractDeployerAllowListConfig',
  'contractNativeMinterConfig',
  'txAllowListConfig',
  'feeManagerConfig',
  'rewardManagerConfig',
  'warpConfig',
];

/** An EVM method of one chain, reported as avaxmon_evm_method_available{chain, method}. */
/** The C-Chain (coreth) has none of subnet-EVM's fee and rules methods: normal there, worth saying on an L1. */
const C_CHAIN_LACKS = new Set(['eth_feeConfig', 'eth_getActiveRulesAt']);

function evmMethod(chain: string, method: string): OptionalMethod {
  const normallyAbsent = chain === 'C' && C_CHAIN_LACKS.has(method);
  return { key: `${chain}:${method}`, method, gauge: 'avaxmon_evm_method_available', labels: { chain, method }, normallyAbsent };
}

const METRICS = [...feeConfigMetrics, ...evmConfigMetrics];

/**
 * Fee config, chain config and active rules of the EVM chains, each chain on its own
 * (avaxmon_evm_config_up). A method the chain does not have (-32601: coreth has no eth_feeConfig,
 * the post-Helicon C-Chain no eth_getActiveRulesAt) is reported as unavailable, once in the log, and
 * skipped; any other error drops that chain's series for this run; the run fails only when every
 * chain failed.
 */
export function createFeeConfigCollector(): Collector {
  return {
    name: 'fee_config',
    metrics: METRICS,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const client = new EvmRpcClient(ctx.node);
      const parts = evmChains(ctx.target, client).map((chain) => ({
        chain: chain.label,
        collect: (own: SampleSet) => collectChain(ctx, own, client, chain),
      }));
      await collectPerChain(ctx, out, 'avaxmon_evm_config_up', parts);
      return out.observation();
    },
  };
}

async function collectChain(ctx: CollectContext, out: SampleSet, client: EvmRpcClient, chain: EvmChain): Promise<void> {
  const call = (method: string) =>
    callOptional(ctx, out, evmMethod(chain.label, method), () => client.call(chain.url, method, [], ctx.signal));
  const [feeConfig, chainConfig, activeRules] = await Promise.all([
    call('eth_feeConfig'),
    call('eth_getChainConfig'),
    call('eth_getActiveRulesAt'),
  ]);
  const labels = { chain: chain.label };
  if (feeConfig !== undefined) exportFeeConfig(ctx, out, labels, feeConfig);
  if (chainConfig !== undefined) exportChainConfig(ctx, out, labels, chainConfig);
  if (activeRules !== undefined) exportActiveRules(ctx, out, labels, activeRules);
}

function exportFeeConfig(ctx: CollectContext, out: SampleSet, labels: Record<string, string>, reply: unknown): void {
  const read = new FieldReader(ctx.target.name, 'eth_feeConfig');
  const result = read.object(reply, 'result');
  const config = read.object(result.feeConfig, 'feeConfig');
  // Fields are omitempty: a zero or unset field is absent.
  for (const [field, metric] of FEE_FIELDS) out.add(metric, labels, read.number(config[field] ?? 0, `feeConfig.${field}`));
  out.add('avaxmon_evm_fee_config_last_changed_block', labels, read.number(result.lastChangedAt ?? 0, 'lastChangedAt'));
}

function exportChainConfig(ctx: CollectContext, out: SampleSet, labels: Record<string, string>, reply: unknown): void {
  const read = new FieldReader(ctx.target.name, 'eth_getChainConfig');
  const config = read.object(reply, 'result');
  out.add('avaxmon_evm_chain_id', labels, read.number(config.chainId, 'chainId'));
  if (config.initialMinDelayMS !== undefined)
    out.add('avaxmon_evm_initial_min_delay_seconds', labels, read.number(config.initialMinDelayMS, 'initialMinDelayMS') / 1000);
  const enabled = precompileStates(read, config);
  for (const precompile of new Set([...KNOWN_PRECOMPILES, ...enabled.keys()])) {
    out.add('avaxmon_evm_precompile_configured', { ...labels, precompile }, enabled.get(precompile) === true);
  }
}

/**
 * Whether each precompile the config names is enabled by its latest entry: the genesis config at
 * the top level, then `upgrades.precompileUpgrades` in activation order (subnet-evm requires
 * increasing timestamps), where `{"<key>": {"blockTimestamp": T, "disable": true}}` turns it off.
 */
function precompileStates(read: FieldReader, config: Record<string, unknown>): Map<string, boolean> {
  const enabled = new Map<string, boolean>();
  for (const [key, value] of Object.entries(config)) if (isPrecompileKey(key, value)) enabled.set(key, !isDisabled(read, value, key));
  const upgrades = read.optional(config.upgrades, 'upgrades', read.object) ?? {};
  const list = read.optional(upgrades.precompileUpgrades, 'upgrades.precompileUpgrades', read.array) ?? [];
  list.forEach((upgrade, index) => {
    const path = `upgrades.precompileUpgrades[${index}]`;
    for (const [key, value] of Object.entries(read.object(upgrade, path))) enabled.set(key, !isDisabled(read, value, `${path}.${key}`));
  });
  return enabled;
}

function isDisabled(read: FieldReader, entry: unknown, path: string): boolean {
  return read.optional(read.object(entry, path).disable, `${path}.disable`, read.boolean) === true;
}

/** Genesis precompile configs sit at the top level of the chain config, next to feeConfig; null is "not configured". */
function isPrecompileKey(key: string, value: unknown): boolean {
  return key !== 'feeConfig' && /^[a-z][A-Za-z]*Config$/.test(key) && value !== null;
}

function exportActiveRules(ctx: CollectContext, out: SampleSet, labels: Record<string, string>, reply: unknown): void {
  const read = new FieldReader(ctx.target.name, 'eth_getActiveRulesAt');
  const result = read.object(reply, 'result');
  for (const group of ['ethRules', 'avalancheRules']) {
    const rules = result[group] === undefined ? {} : read.object(result[group], group);
    // Rules are Go structs without json tags: boolean Is* fields, plus ChainID and maps (not rules).
    for (const [rule, active] of Object.entries(rules)) {
      if (!rule.startsWith('Is')) continue;
      // Read even when not exported: a typed field of the wrong type still fails the chain.
      const isActive = read.boolean(active, `${group}.${rule}`);
      if (ctx.target.evm_rule_series) out.add('avaxmon_evm_rule_active', { ...labels, rule }, isActive);
    }
  }
  const active = result.precompiles === undefined || result.precompiles === null ? {} : read.object(result.precompiles, 'precompiles');
  for (const precompile of new Set([...KNOWN_PRECOMPILES, ...Object.keys(active)])) {
    const entry = active[precompile];
    out.add('avaxmon_evm_precompile_active', { ...labels, precompile }, entry !== undefined);
    if (entry === undefined) continue;
    const timestamp = read.object(entry, `precompiles.${precompile}`).timestamp;
    if (timestamp !== undefined)
      out.add(
        'avaxmon_evm_precompile_activation_timestamp_seconds',
        { ...labels, precompile },
        read.number(timestamp, `precompiles.${precompile}.timestamp`),
      );
  }
}
