import { afterEach, describe, expect, it } from 'vitest';
import { parseEvmResponse } from '../../src/clients/evm-rpc.js';
import { parseGorillaResponse } from '../../src/clients/jsonrpc.js';
import { createFeeConfigCollector } from '../../src/collectors/fee-config.js';
import { UpstreamError } from '../../src/errors.js';
import { chainHeight, chainWorld, SIM_L1 } from '../../src/simulator/chain-world.js';
import { fakeCb58 } from '../../src/simulator/state.js';
import { requestCount, series, SIM_SUBNETS_YAML, startHarness, value, type Harness } from './chain-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const l1 = { target: 'node-a', chain: SIM_L1.name };

async function rpc(url: string, method: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: [] }),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('fee_config collector', () => {
  it('exports every fee config field, the chain id, configured precompiles and active rules of an L1', async () => {
    harness = await startHarness(`${SIM_SUBNETS_YAML}\nevm_rule_series: true`);
    const samples = await harness.run(createFeeConfigCollector());
    expect(value(samples, 'avaxmon_evm_fee_gas_limit', l1)).toBe(8_000_000);
    expect(value(samples, 'avaxmon_evm_fee_target_block_rate_seconds', l1)).toBe(2);
    expect(value(samples, 'avaxmon_evm_fee_min_base_fee_wei', l1)).toBe(25_000_000_000);
    expect(value(samples, 'avaxmon_evm_fee_target_gas', l1)).toBe(15_000_000);
    expect(value(samples, 'avaxmon_evm_fee_base_fee_change_denominator', l1)).toBe(36);
    expect(value(samples, 'avaxmon_evm_fee_min_block_gas_cost', l1)).toBe(0);
    expect(value(samples, 'avaxmon_evm_fee_max_block_gas_cost', l1)).toBe(1_000_000);
    expect(value(samples, 'avaxmon_evm_fee_block_gas_cost_step', l1)).toBe(200_000);
    expect(value(samples, 'avaxmon_evm_fee_config_last_changed_block', l1)).toBe(0);
    expect(value(samples, 'avaxmon_evm_chain_id', l1)).toBe(432204);
    expect(value(samples, 'avaxmon_evm_precompile_configured', { ...l1, precompile: 'feeManagerConfig' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_precompile_configured', { ...l1, precompile: 'warpConfig' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_initial_min_delay_seconds', l1)).toBe(1);
    expect(value(samples, 'avaxmon_evm_config_up', l1)).toBe(1);
    expect(value(samples, 'avaxmon_evm_rule_active', { ...l1, rule: 'IsLondon' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_rule_active', { ...l1, rule: 'IsDurango' })).toBe(1);
    // Helicon is live on Mainnet since 2026-09-22, as the simulator's info.upgrades says.
    expect(value(samples, 'avaxmon_evm_rule_active', { ...l1, rule: 'IsHelicon' })).toBe(1);
    // ChainID in ethRules is a number, not a rule.
    expect(series(samples, 'avaxmon_evm_rule_active', { rule: 'ChainID' })).toEqual([]);
    expect(value(samples, 'avaxmon_evm_precompile_active', { ...l1, precompile: 'warpConfig' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_precompile_activation_timestamp_seconds', { ...l1, precompile: 'warpConfig' })).toBe(1_734_034_648);
    expect(value(samples, 'avaxmon_evm_precompile_active', { ...l1, precompile: 'rewardManagerConfig' })).toBe(0);
  });

  it('leaves the active rules out unless the target asks for them (evm_rule_series)', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    const samples = await harness.run(createFeeConfigCollector());
    expect(series(samples, 'avaxmon_evm_rule_active', {})).toEqual([]);
    expect(value(samples, 'avaxmon_evm_precompile_active', { ...l1, precompile: 'warpConfig' })).toBe(1);
  });

  it('skips what the C-Chain lacks (-32601, no data), logging it once, and keeps what it has', async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    const answer = await rpc(`${harness.sim.url}/ext/bc/C/rpc`, 'eth_feeConfig');
    expect(answer.error).toEqual({ code: -32601, message: 'the method eth_feeConfig does not exist/is not available' });
    const collector = createFeeConfigCollector();
    await harness.run(collector);
    const samples = await harness.run(collector);
    const c = { chain: 'C' };
    expect(value(samples, 'avaxmon_evm_method_available', { ...c, method: 'eth_feeConfig' })).toBe(0);
    expect(value(samples, 'avaxmon_evm_method_available', { ...c, method: 'eth_getActiveRulesAt' })).toBe(0);
    expect(value(samples, 'avaxmon_evm_method_available', { ...c, method: 'eth_getChainConfig' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_chain_id', c)).toBe(43114);
    expect(series(samples, 'avaxmon_evm_fee_gas_limit')).toEqual([]);
    expect(requestCount(harness.self, 'eth_feeConfig', 'unavailable')).toBe(2);
    expect(harness.logs.filter((line) => line.includes('Node method is unavailable') && line.includes('eth_feeConfig'))).toHaveLength(1);
  });

  it('follows a fee config change through the FeeManager (new values, lastChangedAt = block)', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    harness.sim.apply({ fee_config_change: { chain: SIM_L1.name, minBaseFee: 50_000_000_000, gasLimit: 15_000_000 } });
    const changedAt = chainWorld(harness.sim.state).chains.get(SIM_L1.blockchainId)!.evm!.lastChangedAt;
    expect(changedAt).toBeGreaterThan(0);
    expect(changedAt).toBeLessThanOrEqual(chainHeight(chainWorld(harness.sim.state).chains.get(SIM_L1.blockchainId)!, Date.now()));
    const samples = await harness.run(createFeeConfigCollector());
    expect(value(samples, 'avaxmon_evm_fee_min_base_fee_wei', l1)).toBe(50_000_000_000);
    expect(value(samples, 'avaxmon_evm_fee_gas_limit', l1)).toBe(15_000_000);
    expect(value(samples, 'avaxmon_evm_fee_config_last_changed_block', l1)).toBe(changedAt);
  });

  it('reads an L1 at its configured rpc_url', async () => {
    harness = await startHarness(
      (url) =>
        `subnets:\n  - { name: viaurl, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${SIM_L1.blockchainId}, rpc_url: '${url}/ext/bc/${SIM_L1.blockchainId}/rpc' }`,
    );
    const samples = await harness.run(createFeeConfigCollector());
    expect(value(samples, 'avaxmon_evm_chain_id', { chain: 'viaurl' })).toBe(432204);
  });

  it('reports every method of an L1 without an RPC (404) as unavailable and still exports the other chains', async () => {
    const ghost = fakeCb58(616_161, 49);
    harness = await startHarness(`${SIM_SUBNETS_YAML}\n  - { name: ghost, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${ghost} }`);
    harness.sim.apply({ fault: { match: `/ext/bc/${ghost}/rpc`, kind: 'unavailable' } });
    const samples = await harness.run(createFeeConfigCollector());
    for (const method of ['eth_feeConfig', 'eth_getChainConfig', 'eth_getActiveRulesAt']) {
      expect(value(samples, 'avaxmon_evm_method_available', { chain: 'ghost', method })).toBe(0);
    }
    expect(value(samples, 'avaxmon_evm_fee_gas_limit', l1)).toBe(8_000_000);
    expect(series(samples, 'avaxmon_evm_chain_id', { chain: 'ghost' })).toEqual([]);
  });

  it('counts a precompile whose latest upgrade disables it as not configured', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    const config = (await rpc(`${harness.sim.url}/ext/bc/${SIM_L1.blockchainId}/rpc`, 'eth_getChainConfig')).result as Record<string, any>;
    expect(config.upgrades.precompileUpgrades.at(-1)).toEqual({ txAllowListConfig: { blockTimestamp: 1_750_000_000, disable: true } });
    let samples = await harness.run(createFeeConfigCollector());
    expect(value(samples, 'avaxmon_evm_precompile_configured', { ...l1, precompile: 'txAllowListConfig' })).toBe(0);
    expect(value(samples, 'avaxmon_evm_precompile_active', { ...l1, precompile: 'txAllowListConfig' })).toBe(0);

    // Re-enabled by a later upgrade: configured again.
    chainWorld(harness.sim.state)
      .chains.get(SIM_L1.blockchainId)!
      .evm!.precompileUpgrades.push({ txAllowListConfig: { blockTimestamp: 1_760_000_000 } });
    samples = await harness.run(createFeeConfigCollector());
    expect(value(samples, 'avaxmon_evm_precompile_configured', { ...l1, precompile: 'txAllowListConfig' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_precompile_active', { ...l1, precompile: 'txAllowListConfig' })).toBe(1);
  });

  it('reads the v1.15 chain configs: fork times on both VMs, initialMinDelayMS on subnet-evm only', async () => {
    harness = await startHarness(`${SIM_SUBNETS_YAML}\nevm_rule_series: true`);
    harness.sim.state.upgrades.heliconTime = '2026-09-22T15:00:00Z';
    const c = (await rpc(`${harness.sim.url}/ext/bc/C/rpc`, 'eth_getChainConfig')).result as Record<string, unknown>;
    expect(c).toMatchObject({
      chainId: 43114,
      shanghaiTime: 1_709_740_800,
      cancunTime: 1_734_368_400,
      graniteTimestamp: 1_763_568_000,
      heliconTimestamp: 1_790_089_200,
    });
    expect(c.initialMinDelayMS).toBeUndefined();
    const rules = await rpc(`${harness.sim.url}/ext/bc/C/rpc`, 'eth_getActiveRulesAt');
    expect(rules.error).toEqual({ code: -32601, message: 'the method eth_getActiveRulesAt does not exist/is not available' });
    const collector = createFeeConfigCollector();
    await harness.run(collector);
    const samples = await harness.run(collector);
    expect(value(samples, 'avaxmon_evm_config_up', { chain: 'C' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_method_available', { chain: 'C', method: 'eth_getActiveRulesAt' })).toBe(0);
    expect(series(samples, 'avaxmon_evm_initial_min_delay_seconds', { chain: 'C' })).toEqual([]);
    expect(value(samples, 'avaxmon_evm_rule_active', { ...l1, rule: 'IsHelicon' })).toBe(1);
    expect(
      harness.logs.filter((line) => line.includes('Node method is unavailable') && line.includes('eth_getActiveRulesAt')),
    ).toHaveLength(1);
  });

  it('isolates a chain answering 503 while it bootstraps: the other chain keeps its series', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    harness.sim.apply({ chain_bootstrapping: SIM_L1.name });
    const collector = createFeeConfigCollector();
    let samples = await harness.run(collector);
    expect(value(samples, 'avaxmon_evm_config_up', l1)).toBe(0);
    expect(series(samples, 'avaxmon_evm_fee_gas_limit', l1)).toEqual([]);
    expect(series(samples, 'avaxmon_evm_chain_id', l1)).toEqual([]);
    expect(value(samples, 'avaxmon_evm_config_up', { chain: 'C' })).toBe(1);
    expect(value(samples, 'avaxmon_evm_chain_id', { chain: 'C' })).toBe(43114);

    harness.sim.apply({ chain_bootstrapped: SIM_L1.name });
    samples = await harness.run(collector);
    expect(value(samples, 'avaxmon_evm_config_up', l1)).toBe(1);
    expect(value(samples, 'avaxmon_evm_fee_gas_limit', l1)).toBe(8_000_000);
  });

  it('fails the run when every chain fails with an error other than a missing method', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    harness.sim.apply({ fault: { match: 'eth_getChainConfig', kind: 'rpc_error' } });
    await expect(harness.run(createFeeConfigCollector())).rejects.toThrow(/eth_getChainConfig: EVM JSON-RPC error -32000/);
    expect(requestCount(harness.self, 'eth_getChainConfig', 'rpc_error')).toBeGreaterThan(0);
  });
});

describe('the two JSON-RPC error dialects', () => {
  const ok = (body: unknown) => ({ status: 200, headers: {}, text: JSON.stringify(body) });

  it('classifies by code on EVM chains: -32601 is unavailable, everything else an RPC error', () => {
    const missing = ok({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'the method eth_foo does not exist/is not available' } });
    const outcome = (response: ReturnType<typeof ok>) => {
      try {
        parseEvmResponse(response, 't', 'eth_foo');
      } catch (error) {
        return (error as UpstreamError).outcome;
      }
      return 'success';
    };
    expect(outcome(missing)).toBe('unavailable');
    // A server error whose text happens to say "not available" is still an error on an EVM chain.
    expect(outcome(ok({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'header not available' } }))).toBe('rpc_error');
    expect(outcome(ok({ jsonrpc: '2.0', id: 1, result: '0x10' }))).toBe('success');
    expect(outcome({ status: 404, headers: {}, text: '404 page not found\n' })).toBe('unavailable');
  });

  it('gorilla errors carry data:null and code -32000 for everything, so the gorilla parser reads the message', () => {
    const gorilla = ok({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'rpc: can\'t find method "platform.GetFoo"', data: null },
      id: 1,
    });
    expect(() => parseGorillaResponse(gorilla, 't', 'platform.getFoo', '/ext/bc/P')).toThrow(UpstreamError);
    try {
      parseGorillaResponse(gorilla, 't', 'platform.getFoo', '/ext/bc/P');
    } catch (error) {
      expect((error as UpstreamError).outcome).toBe('unavailable');
    }
  });

  it('share the envelope: a non-object body, a non-200 answer without error and a body without result fail alike', () => {
    const parsers = [
      (response: ReturnType<typeof ok>) => parseEvmResponse(response, 't', 'm'),
      (response: ReturnType<typeof ok>) => parseGorillaResponse(response, 't', 'm', '/ext/info'),
    ];
    for (const parse of parsers) {
      expect(() => parse(ok([{ jsonrpc: '2.0', id: 1, result: 1 }]))).toThrow(/JSON-RPC response is not an object/);
      expect(() => parse({ ...ok({ jsonrpc: '2.0', id: 1, result: 1 }), status: 502 })).toThrow(/HTTP 502: /);
      expect(() => parse(ok({ jsonrpc: '2.0', id: 1 }))).toThrow(/neither result nor error/);
      expect(parse(ok({ jsonrpc: '2.0', id: 1, result: null }))).toBeNull();
    }
  });
});
