import { afterEach, describe, expect, it } from 'vitest';
import { createL1ValidatorsCollector } from '../../src/collectors/l1-validators.js';
import { chainWorld, primaryValidator, SIM_L1 } from '../../src/simulator/chain-world.js';
import { fakeCb58, SIM_NODE_ID } from '../../src/simulator/state.js';
import { requestCount, SIM_SUBNETS_YAML, startHarness, value, type Harness } from './chain-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('l1_validators collector', () => {
  it('reads the L1 validators API, whose numbers are plain JSON numbers', async () => {
    harness = await startHarness(`validators: { node_ids: [self] }\n${SIM_SUBNETS_YAML}`);
    const response = await fetch(`${harness.sim.url}/ext/bc/${SIM_L1.blockchainId}/validators`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'validators.getCurrentValidators', params: { nodeIDs: [SIM_NODE_ID] } }),
    });
    const raw = ((await response.json()) as { result: { validators: Array<Record<string, unknown>> } }).result.validators[0];
    expect(typeof raw.weight).toBe('number');
    expect(typeof raw.uptimePercentage).toBe('number');

    const mine = chainWorld(harness.sim.state).subnets[1].l1Validators[0];
    const nowSeconds = Math.floor(Date.now() / 1000);
    const samples = await harness.run(createL1ValidatorsCollector());
    const labels = { target: 'node-a', subnet: SIM_L1.name, node_id: SIM_NODE_ID };
    expect(value(samples, 'avaxmon_subnet_validator_active', labels)).toBe(1);
    expect(value(samples, 'avaxmon_subnet_validator_is_l1', labels)).toBe(1);
    expect(value(samples, 'avaxmon_subnet_validator_connected', labels)).toBe(1);
    expect(value(samples, 'avaxmon_subnet_validator_uptime_ratio', labels)).toBeCloseTo(0.999536, 6);
    expect(value(samples, 'avaxmon_subnet_validator_weight', labels)).toBe(20);
    expect(value(samples, 'avaxmon_subnet_validator_start_timestamp_seconds', labels)).toBe(mine.startTime);
    const expectedUptime = ((nowSeconds - mine.startTime) * 99.9536) / 100;
    expect(value(samples, 'avaxmon_subnet_validator_uptime_seconds', labels)).toBeCloseTo(expectedUptime, -1);
    // Only the configured L1 (with blockchain_id) is asked, once.
    expect(requestCount(harness.self, 'validators.getCurrentValidators')).toBe(1);
  });

  it('reports an inactive validator, a disconnected one, and 0 for a watched node the L1 does not list', async () => {
    const inactive = primaryValidator(4, 0).nodeId;
    const stranger = primaryValidator(40, 0).nodeId;
    harness = await startHarness(`validators: { node_ids: [self, ${inactive}, ${stranger}] }\n${SIM_SUBNETS_YAML}`);
    harness.sim.apply({ validator_disconnect: 'self' });
    const samples = await harness.run(createL1ValidatorsCollector());
    expect(value(samples, 'avaxmon_subnet_validator_connected', { node_id: SIM_NODE_ID })).toBe(0);
    expect(value(samples, 'avaxmon_subnet_validator_active', { node_id: inactive })).toBe(0);
    expect(value(samples, 'avaxmon_subnet_validator_is_l1', { node_id: inactive })).toBe(1);
    expect(value(samples, 'avaxmon_subnet_validator_active', { node_id: stranger })).toBe(0);
    expect(value(samples, 'avaxmon_subnet_validator_weight', { node_id: stranger })).toBeUndefined();
  });

  it('watches per-subnet node ids when a subnet sets its own', async () => {
    const other = primaryValidator(2, 0).nodeId;
    harness = await startHarness(`validators: { node_ids: [self] }
subnets:
  - { name: ${SIM_L1.name}, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${SIM_L1.blockchainId}, node_ids: [${other}] }`);
    const samples = await harness.run(createL1ValidatorsCollector());
    expect(value(samples, 'avaxmon_subnet_validator_active', { node_id: other })).toBe(1);
    expect(value(samples, 'avaxmon_subnet_validator_active', { node_id: SIM_NODE_ID })).toBeUndefined();
  });

  it('reports an L1 without a validators API as unavailable, once, and still exports the other L1s', async () => {
    const ghost = fakeCb58(515_151, 49);
    harness = await startHarness(`validators: { node_ids: [self] }\n${SIM_SUBNETS_YAML}
  - { name: ghost, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${ghost} }
  - { name: gone, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${fakeCb58(525_252, 49)} }`);
    // "gone" answers like a real node without that chain (plain 404); "ghost" with gorilla's "can't find service".
    harness.sim.apply({ fault: { match: `/ext/bc/${fakeCb58(525_252, 49)}/validators`, kind: 'unavailable' } });
    const collector = createL1ValidatorsCollector();
    await harness.run(collector);
    const samples = await harness.run(collector);
    expect(value(samples, 'avaxmon_subnet_validator_active', { subnet: SIM_L1.name, node_id: SIM_NODE_ID })).toBe(1);
    expect(value(samples, 'avaxmon_subnet_validators_api_available', { subnet: SIM_L1.name })).toBe(1);
    expect(value(samples, 'avaxmon_subnet_validators_api_available', { subnet: 'ghost' })).toBe(0);
    expect(value(samples, 'avaxmon_subnet_validators_api_available', { subnet: 'gone' })).toBe(0);
    expect(value(samples, 'avaxmon_subnet_validator_active', { subnet: 'ghost' })).toBeUndefined();
    expect(requestCount(harness.self, 'validators.getCurrentValidators', 'unavailable')).toBe(4);
    const logged = harness.logs.filter((line) => line.includes('Node method is unavailable'));
    expect(logged).toHaveLength(2);
    expect(logged.join()).toContain('"subnet":"ghost"');
  });

  it('still fails the run on a real error from one L1', async () => {
    harness = await startHarness(`validators: { node_ids: [self] }\n${SIM_SUBNETS_YAML}`);
    harness.sim.apply({ fault: { match: 'validators.getCurrentValidators', kind: 'rpc_error' } });
    await expect(harness.run(createL1ValidatorsCollector())).rejects.toThrow(/simulated failure/);
  });

  it('exports nothing and asks nothing without L1 chains configured', async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    expect(await harness.run(createL1ValidatorsCollector())).toEqual([]);
    expect(requestCount(harness.self, 'validators.getCurrentValidators')).toBe(0);
  });
});
