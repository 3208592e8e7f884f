import { afterEach, describe, expect, it } from 'vitest';
import { createChainProgressCollector } from '../../src/collectors/chain-progress.js';
import { chainHeight, chainWorld, findChain, SIM_L1 } from '../../src/simulator/chain-world.js';
import { fakeCb58 } from '../../src/simulator/state.js';
import { series, SIM_SUBNETS_YAML, startHarness, value, type Harness } from './chain-harness.js';

const UNKNOWN_CHAIN = fakeCb58(424_242, 49);
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('chain_progress collector', () => {
  it('reads P and X heights (strings), C and L1 heights (hex), statuses, supply and fees', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    const world = chainWorld(harness.sim.state);
    const nowMs = Date.now();
    const samples = await harness.run(createChainProgressCollector(), nowMs);
    for (const [chain, id] of [
      ['P', 'P'],
      ['X', 'X'],
      ['C', 'C'],
      [SIM_L1.name, SIM_L1.blockchainId],
    ]) {
      const expected = chainHeight(world.chains.get(id)!, nowMs);
      // The simulator may have moved a block between the request and now.
      expect(value(samples, 'avaxmon_chain_height', { target: 'node-a', chain })).toBeGreaterThanOrEqual(expected - 1);
      expect(value(samples, 'avaxmon_chain_height', { chain })).toBeLessThanOrEqual(expected + 1);
      expect(value(samples, 'avaxmon_chain_last_progress_timestamp_seconds', { chain })).toBe(nowMs / 1000);
    }
    expect(value(samples, 'avaxmon_blockchain_status', { chain: SIM_L1.name, status: 'Validating' })).toBe(1);
    expect(
      series(samples, 'avaxmon_blockchain_status', { chain: SIM_L1.name })
        .map((s) => s.labels.status)
        .sort(),
    ).toEqual(['Created', 'Preferred', 'Syncing', 'Unknown', 'Validating']);
    expect(series(samples, 'avaxmon_blockchain_status', { chain: 'C' }).reduce((sum, s) => sum + s.value, 0)).toBe(1);
    expect(value(samples, 'avaxmon_current_supply_avax')).toBeCloseTo(460_123_456.789012345, 6);
    expect(value(samples, 'avaxmon_chain_tx_fee_avax', { chain: 'X', fee: 'tx' })).toBe(0.001);
    expect(value(samples, 'avaxmon_chain_tx_fee_avax', { chain: 'X', fee: 'create_asset' })).toBe(0.01);
  });

  it('keeps the last progress time of a stalled chain and clears it on the first run after it resumes', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    const t0 = Date.now();
    harness.sim.apply({ chain_stall: SIM_L1.name });
    let samples = await harness.run(createChainProgressCollector(), t0);
    const stalledHeight = value(samples, 'avaxmon_chain_height', { chain: SIM_L1.name });
    // Ten minutes of runs later (collector clock), the height has not moved: progress time stays at t0.
    samples = await harness.run(createChainProgressCollector(), t0 + 600_000);
    expect(value(samples, 'avaxmon_chain_height', { chain: SIM_L1.name })).toBe(stalledHeight);
    expect(value(samples, 'avaxmon_chain_last_progress_timestamp_seconds', { chain: SIM_L1.name })).toBe(t0 / 1000);
    const stalledFor = (t0 + 600_000) / 1000 - value(samples, 'avaxmon_chain_last_progress_timestamp_seconds', { chain: SIM_L1.name })!;
    expect(stalledFor).toBeGreaterThan(300); // AvalancheChainStalled's threshold

    harness.sim.apply({ chain_resume: SIM_L1.name });
    samples = await harness.run(createChainProgressCollector(), t0 + 660_000);
    expect(value(samples, 'avaxmon_chain_height', { chain: SIM_L1.name })).toBeGreaterThan(stalledHeight!);
    expect(value(samples, 'avaxmon_chain_last_progress_timestamp_seconds', { chain: SIM_L1.name })).toBe((t0 + 660_000) / 1000);
  });

  it('maps UnknownChain and other statuses onto the state set', async () => {
    harness = await startHarness(`chains: ['${UNKNOWN_CHAIN}']\n${SIM_SUBNETS_YAML}`);
    harness.sim.apply({ blockchain_status: { chain: SIM_L1.name, status: 'Syncing' } });
    const samples = await harness.run(createChainProgressCollector());
    expect(value(samples, 'avaxmon_blockchain_status', { chain: SIM_L1.name, status: 'Syncing' })).toBe(1);
    expect(value(samples, 'avaxmon_blockchain_status', { chain: SIM_L1.name, status: 'Validating' })).toBe(0);
    expect(value(samples, 'avaxmon_blockchain_status', { chain: UNKNOWN_CHAIN, status: 'Unknown' })).toBe(1);
    expect(findChain(chainWorld(harness.sim.state), SIM_L1.name)?.status).toBe('Syncing');
  });

  it('isolates a chain answering 503 "not done bootstrapping": its series go, its neighbours stay', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    const collector = createChainProgressCollector();
    const t0 = Date.now();
    let samples = await harness.run(collector, t0);
    const xHeight = value(samples, 'avaxmon_chain_height', { chain: 'X' })!;
    harness.sim.apply({ chain_bootstrapping: 'X' });
    const reply = await fetch(`${harness.sim.url}/ext/bc/X`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":{}}',
    });
    expect(reply.status).toBe(503);
    expect(await reply.text()).toMatch(/not done bootstrapping/);

    samples = await harness.run(collector, t0 + 60_000);
    expect(value(samples, 'avaxmon_chain_up', { target: 'node-a', chain: 'X' })).toBe(0);
    expect(series(samples, 'avaxmon_chain_height', { chain: 'X' })).toEqual([]);
    expect(series(samples, 'avaxmon_chain_tx_fee_avax', { chain: 'X' })).toEqual([]);
    for (const chain of ['P', 'C', SIM_L1.name]) {
      expect(value(samples, 'avaxmon_chain_up', { chain })).toBe(1);
      expect(value(samples, 'avaxmon_chain_height', { chain })).toBeGreaterThan(0);
    }
    // The P-Chain still answers for the X-Chain's status and the supply.
    expect(value(samples, 'avaxmon_blockchain_status', { chain: 'X', status: 'Validating' })).toBe(1);
    expect(value(samples, 'avaxmon_current_supply_avax')).toBeGreaterThan(0);
    expect(harness.logs.filter((line) => line.includes('Chain failed') && line.includes('"chain":"X"'))).toHaveLength(1);

    await harness.run(collector, t0 + 120_000);
    expect(harness.logs.filter((line) => line.includes('Chain failed'))).toHaveLength(1);
    harness.sim.apply({ chain_bootstrapped: 'X' });
    samples = await harness.run(collector, t0 + 180_000);
    expect(value(samples, 'avaxmon_chain_up', { chain: 'X' })).toBe(1);
    expect(value(samples, 'avaxmon_chain_height', { chain: 'X' })).toBeGreaterThanOrEqual(xHeight);
    expect(harness.logs.filter((line) => line.includes('Chain answers again') && line.includes('"chain":"X"'))).toHaveLength(1);
  });

  it('loses the supply and the statuses with the P-Chain, and keeps the other heights', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    harness.sim.apply({ chain_bootstrapping: 'P' });
    const samples = await harness.run(createChainProgressCollector());
    expect(value(samples, 'avaxmon_chain_up', { chain: 'P' })).toBe(0);
    expect(series(samples, 'avaxmon_current_supply_avax')).toEqual([]);
    expect(series(samples, 'avaxmon_blockchain_status')).toEqual([]);
    expect(value(samples, 'avaxmon_chain_height', { chain: 'C' })).toBeGreaterThan(0);
    expect(value(samples, 'avaxmon_chain_height', { chain: 'X' })).toBeGreaterThan(0);
  });

  it('fails the run only when every chain fails', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    harness.sim.apply({ fault: { match: '*', kind: 'http_500' } });
    await expect(harness.run(createChainProgressCollector())).rejects.toThrow(/HTTP 500/);
  });

  it('an L1 RPC failing with HTTP 500 drops only that L1', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    harness.sim.apply({ fault: { match: `/ext/bc/${SIM_L1.blockchainId}/rpc`, kind: 'http_500' } });
    const samples = await harness.run(createChainProgressCollector());
    expect(value(samples, 'avaxmon_chain_up', { chain: SIM_L1.name })).toBe(0);
    expect(series(samples, 'avaxmon_chain_height', { chain: SIM_L1.name })).toEqual([]);
    expect(value(samples, 'avaxmon_chain_up', { chain: 'C' })).toBe(1);
  });

  it('reports an L1 chain without an EVM RPC as unavailable, once, and still exports the other chains', async () => {
    harness = await startHarness(
      `${SIM_SUBNETS_YAML}\n  - { name: ghost, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${UNKNOWN_CHAIN} }`,
    );
    harness.sim.apply({ fault: { match: `/ext/bc/${UNKNOWN_CHAIN}/rpc`, kind: 'unavailable' } });
    const collector = createChainProgressCollector();
    await harness.run(collector);
    const samples = await harness.run(collector);
    expect(value(samples, 'avaxmon_chain_height_available', { chain: 'ghost' })).toBe(0);
    expect(value(samples, 'avaxmon_chain_height_available', { chain: SIM_L1.name })).toBe(1);
    expect(value(samples, 'avaxmon_chain_height', { chain: 'ghost' })).toBeUndefined();
    expect(value(samples, 'avaxmon_chain_height', { chain: SIM_L1.name })).toBeGreaterThan(0);
    expect(value(samples, 'avaxmon_chain_height', { chain: 'P' })).toBeGreaterThan(0);
    expect(harness.logs.filter((line) => line.includes('Node method is unavailable') && line.includes('"chain":"ghost"'))).toHaveLength(1);
  });
});
