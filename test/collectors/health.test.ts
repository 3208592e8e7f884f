import { afterEach, describe, expect, it } from 'vitest';
import { createHealthCollector } from '../../src/collectors/health.js';
import { goDurationSeconds } from '../../src/collectors/health-details.js';
import { SIM_L1 } from '../../src/simulator/chain-world.js';
import { series, SIM_SUBNETS_YAML, startHarness, value, type Harness } from './chain-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('health collector: the numbers in the checks’ messages', () => {
  it('exports connected stake per chain, disk, network, router and future-upgrade details in v1.15 shapes', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML, { peers: 60 });
    const body = (await (await fetch(`${harness.sim.url}/ext/health`)).json()) as { checks: Record<string, { message: any }> };
    expect(body.checks.C.message.networking.percentConnected).toBe(1);
    expect(body.checks.diskspace.message).toEqual({ availableDiskBytes: 412_316_860_416, availableDiskPercentage: 42 });

    const samples = await harness.run(createHealthCollector());
    for (const chain of ['P', 'X', 'C']) {
      expect(value(samples, 'avaxmon_health_chain_connected_stake_ratio', { target: 'node-a', chain })).toBe(1);
      expect(value(samples, 'avaxmon_health_chain_disconnected_validators', { chain })).toBe(0);
      expect(value(samples, 'avaxmon_health_chain_processing_blocks', { chain })).toBe(2);
      expect(value(samples, 'avaxmon_health_chain_longest_processing_block_seconds', { chain })).toBeCloseTo(0.3125);
    }
    expect(value(samples, 'avaxmon_health_disk_available_bytes')).toBe(412_316_860_416);
    expect(value(samples, 'avaxmon_health_disk_available_ratio')).toBe(0.42);
    expect(value(samples, 'avaxmon_health_network_send_fail_ratio')).toBe(0.0125);
    expect(value(samples, 'avaxmon_health_network_since_last_received_seconds')).toBeCloseTo(0.085316);
    expect(value(samples, 'avaxmon_health_network_since_last_sent_seconds')).toBeCloseTo(0.1205);
    expect(value(samples, 'avaxmon_health_network_ingress_connections')).toBe(30);
    expect(value(samples, 'avaxmon_health_router_outstanding_requests')).toBe(17);
    expect(value(samples, 'avaxmon_health_router_longest_running_request_seconds')).toBeCloseTo(1.204);
    // A v1.14 node among v1.14 peers: both announce Granite.
    expect(value(samples, 'avaxmon_health_local_upgrade_timestamp_seconds')).toBe(Date.parse('2025-11-19T16:00:00Z') / 1000);
    expect(value(samples, 'avaxmon_health_peers_upgrade_timestamp_seconds')).toBe(Date.parse('2025-11-19T16:00:00Z') / 1000);
    expect(value(samples, 'avaxmon_health_peers_upgrade_stake_ratio')).toBeGreaterThan(0);
  });

  it('follows a chain losing connected stake and the disk filling up (the diskspace check fails, its numbers stay)', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML, { validators: 201 });
    harness.sim.apply({ set_connected_stake: { chain: 'C', percent: 72.5 }, set_disk: { percent: 8, bytes: 40_000_000_000 } });
    const samples = await harness.run(createHealthCollector());
    expect(value(samples, 'avaxmon_health_chain_connected_stake_ratio', { chain: 'C' })).toBe(0.725);
    expect(value(samples, 'avaxmon_health_chain_disconnected_validators', { chain: 'C' })).toBe(55);
    expect(value(samples, 'avaxmon_health_chain_connected_stake_ratio', { chain: 'P' })).toBe(1);
    expect(value(samples, 'avaxmon_health_check_passing', { check: 'diskspace' })).toBe(0);
    expect(value(samples, 'avaxmon_health_disk_available_ratio')).toBe(0.08);
    expect(value(samples, 'avaxmon_health_disk_available_bytes')).toBe(40_000_000_000);
  });

  it("labels an L1's chain check with its subnet name, and skips messages of any other shape", async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    harness.sim.state.checks.set(SIM_L1.blockchainId, { failing: false, contiguousFailures: 0, tags: [SIM_L1.subnetId] });
    harness.sim.apply({ set_connected_stake: { chain: SIM_L1.blockchainId, percent: 60 } });
    // A chain that failed to start has a null message; an unknown check may carry anything.
    harness.sim.state.checks.set('validation', { failing: false, contiguousFailures: 0, tags: ['application'] });
    const samples = await harness.run(createHealthCollector());
    expect(value(samples, 'avaxmon_health_chain_connected_stake_ratio', { chain: SIM_L1.name })).toBe(0.6);
    expect(series(samples, 'avaxmon_health_chain_connected_stake_ratio', { chain: SIM_L1.blockchainId })).toEqual([]);
    expect(value(samples, 'avaxmon_health_check_passing', { check: 'validation' })).toBe(1);
  });
});

describe('health never goes blind on details of another shape', () => {
  /** Details a real node may send that avaxmon has not seen: the C-Chain's SAE engine, numbers as other types. */
  const oddDetails = () => {
    harness!.sim.apply({ health_message: { check: 'C', message: { engine: 'sae', networking: { percentConnected: '1.1 TB' } } } });
    harness!.sim.apply({ health_message: { check: 'router', message: { outstandingRequests: 3, longestRunningRequest: 1204000000 } } });
    harness!.sim.apply({ health_message: { check: 'diskspace', message: 'fine' } });
  };

  it('an unhealthy node with odd details still reads unhealthy, each check passing or failing, the odd fields counted', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    oddDetails();
    harness.sim.apply({ fail_check: 'network' });
    const samples = await harness.run(createHealthCollector());
    expect(value(samples, 'avaxmon_node_healthy')).toBe(0);
    expect(value(samples, 'avaxmon_node_live')).toBe(1);
    expect(value(samples, 'avaxmon_health_check_passing', { check: 'network' })).toBe(0);
    expect(value(samples, 'avaxmon_health_check_passing', { check: 'C' })).toBe(1);
    expect(value(samples, 'avaxmon_health_router_outstanding_requests')).toBe(3);
    expect(value(samples, 'avaxmon_health_details_skipped_total', { check: 'C', field: 'engine' })).toBe(1);
    expect(value(samples, 'avaxmon_health_details_skipped_total', { check: 'C', field: 'networking.percentConnected' })).toBe(1);
    expect(value(samples, 'avaxmon_health_details_skipped_total', { check: 'router', field: 'longestRunningRequest' })).toBe(1);
    expect(series(samples, 'avaxmon_health_details_skipped_total', { check: 'diskspace' })).toEqual([]);

    const again = await harness.run(createHealthCollector());
    expect(value(again, 'avaxmon_health_details_skipped_total', { check: 'C', field: 'engine' })).toBe(2);
    expect(harness.logs.filter((line) => line.includes('Health detail of an unexpected shape skipped'))).toHaveLength(3);
  });

  it('a healthy node with odd details keeps every health series', async () => {
    harness = await startHarness(SIM_SUBNETS_YAML);
    oddDetails();
    const samples = await harness.run(createHealthCollector());
    expect(value(samples, 'avaxmon_node_healthy')).toBe(1);
    expect(value(samples, 'avaxmon_node_ready')).toBe(1);
    expect(value(samples, 'avaxmon_health_check_passing', { check: 'router' })).toBe(1);
  });
});

describe('Go durations in health messages', () => {
  it('reads time.Duration.String() forms and rejects anything else', () => {
    expect(goDurationSeconds('0s')).toBe(0);
    expect(goDurationSeconds('1h2m3.5s')).toBe(3723.5);
    expect(goDurationSeconds('120ms')).toBeCloseTo(0.12);
    expect(goDurationSeconds('1.5µs')).toBeCloseTo(1.5e-6);
    expect(goDurationSeconds('250ns')).toBeCloseTo(2.5e-7);
    expect(goDurationSeconds('12')).toBeUndefined();
    expect(goDurationSeconds(12)).toBeUndefined();
    expect(goDurationSeconds('soon')).toBeUndefined();
  });
});
