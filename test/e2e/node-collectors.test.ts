import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape, startStack, valueOf, find, type Stack } from '../helpers/stack.js';

describe('node collectors against the simulator', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      manualTime: true,
      sim: { peers: 2000 },
      targetYaml: 'health_tags: [11111111111111111111111111111111LpoYY]',
    });
  });
  afterAll(() => stack.close());

  it('exports health, readiness, liveness, checks and tags', async () => {
    const samples = await scrape(stack.url);
    expect(valueOf(samples, 'avaxmon_node_healthy', { target: 'node-a' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_node_ready', { target: 'node-a' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_node_live', { target: 'node-a' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_health_check_passing', { check: 'network' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_health_tag_healthy', { tag: '11111111111111111111111111111111LpoYY' })).toBe(1);
  });

  it('follows a health flip (GET 503 with body) and its recovery', async () => {
    const before = Date.now() / 1000;
    stack.sim.apply({ fail_check: { check: 'C', error: 'block processing too slow' } });
    stack.sim.apply({ fail_check: 'C' });
    const failing = await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => valueOf(s, 'avaxmon_node_healthy') === 0,
    );
    expect(valueOf(failing, 'avaxmon_health_check_passing', { check: 'C' })).toBe(0);
    expect(valueOf(failing, 'avaxmon_health_check_contiguous_failures', { check: 'C' })).toBe(2);
    expect(valueOf(failing, 'avaxmon_health_check_first_failure_timestamp_seconds', { check: 'C' })).toBeGreaterThanOrEqual(
      Math.floor(before),
    );
    // The C-Chain check carries the primary network's tag, so the tag turns unhealthy too.
    expect(valueOf(failing, 'avaxmon_health_tag_healthy')).toBe(0);
    expect(valueOf(failing, 'avaxmon_collector_success', { collector: 'health' })).toBe(1);
    stack.sim.apply({ recover_check: 'C' });
    const recovered = await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => valueOf(s, 'avaxmon_node_healthy') === 1,
    );
    expect(find(recovered, 'avaxmon_health_check_first_failure_timestamp_seconds')).toEqual([]);
  });

  it('exports node identity, VMs and bootstrap state', async () => {
    const samples = await scrape(stack.url);
    expect(find(samples, 'avaxmon_node_info')[0].labels).toEqual({
      target: 'node-a',
      node_id: stack.sim.state.nodeId,
      version: 'avalanchego/1.14.2',
      database_version: 'v1.4.5',
      rpc_protocol_version: '42',
      network: 'mainnet',
    });
    expect(valueOf(samples, 'avaxmon_node_network_id')).toBe(1);
    expect(valueOf(samples, 'avaxmon_chain_bootstrapped', { chain: 'X' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_node_vm_info', { vm: 'avm' })).toBe(1);
    expect(
      find(samples, 'avaxmon_node_installed_vm_info').map((sample) => [sample.labels.vm_id, sample.labels.aliases, sample.value]),
    ).toEqual(
      expect.arrayContaining([
        ['jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq', 'avm', 1],
        ['mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6', 'evm', 1],
        ['11111111111111111111111111111111LpoYY', 'platform', 1],
        ['srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', 'subnetevm,subnet-evm', 1],
      ]),
    );
  });

  it('reduces 2,000 peers to counts and statistics, never one series per peer', async () => {
    const samples = await scrape(stack.url);
    expect(valueOf(samples, 'avaxmon_node_peers')).toBe(2000);
    const byVersion = find(samples, 'avaxmon_node_peers_by_version');
    expect(byVersion.reduce((sum, sample) => sum + sample.value, 0)).toBe(2000);
    expect(valueOf(samples, 'avaxmon_node_peers_by_version', { version: 'avalanchego/1.13.5' })).toBe(400);
    // Peers see 100..94 percent in a repeating pattern: min 0.94, median 0.97, p10 0.94.
    expect(valueOf(samples, 'avaxmon_node_observed_uptime_min_ratio')).toBeCloseTo(0.94);
    expect(valueOf(samples, 'avaxmon_node_observed_uptime_median_ratio')).toBeCloseTo(0.97);
    expect(valueOf(samples, 'avaxmon_node_observed_uptime_p10_ratio')).toBeCloseTo(0.94);
    expect(valueOf(samples, 'avaxmon_node_benched_peers', { chain: 'C' })).toBe(21);
    expect(valueOf(samples, 'avaxmon_node_peers_newer_version_ratio')).toBe(0);
    // Peers 0..1998 are validators 1..1999 of the simulated set; the last peer does not validate.
    expect(valueOf(samples, 'avaxmon_node_validator_peers')).toBe(1999);
    expect(valueOf(samples, 'avaxmon_node_peers_newer_version_stake_ratio')).toBe(0);
    expect(samples.filter((sample) => sample.name.startsWith('avaxmon_node_')).length).toBeLessThan(40);
  });

  it('follows the peer count down and up', async () => {
    stack.sim.apply({ set_peers: 8 });
    await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => valueOf(s, 'avaxmon_node_peers') === 8,
    );
    stack.sim.apply({ set_peers: 2000 });
    await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => valueOf(s, 'avaxmon_node_peers') === 2000,
    );
  });

  it('converts info.uptime percentages to ratios', async () => {
    stack.sim.apply({ set_uptime: 79.5 });
    const samples = await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => valueOf(s, 'avaxmon_node_uptime_rewarding_stake_ratio') === 0.795,
    );
    expect(valueOf(samples, 'avaxmon_node_uptime_weighted_average_ratio', { subnet: 'primary' })).toBe(0.795);
  });

  it('exports upgrade times (v1.15: Helicon activated) and ACP weights in AVAX', async () => {
    const samples = await scrape(stack.url);
    expect(valueOf(samples, 'avaxmon_network_upgrade_activation_timestamp_seconds', { upgrade: 'etna' })).toBe(
      Date.parse('2024-12-16T17:00:00Z') / 1000,
    );
    expect(valueOf(samples, 'avaxmon_network_upgrade_scheduled', { upgrade: 'etna' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_network_upgrade_scheduled', { upgrade: 'helicon' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_network_upgrade_activation_timestamp_seconds', { upgrade: 'helicon' })).toBe(
      Date.parse('2026-09-22T15:00:00Z') / 1000,
    );
    expect(valueOf(samples, 'avaxmon_acp_support_weight_avax', { acp: '23' })).toBe(150_000_000);
    const weight = (name: string) => valueOf(samples, name, { acp: '23' })!;
    const total =
      weight('avaxmon_acp_support_weight_avax') + weight('avaxmon_acp_object_weight_avax') + weight('avaxmon_acp_abstain_weight_avax');
    expect(valueOf(samples, 'avaxmon_acp_support_stake_ratio', { acp: '23' })).toBeCloseTo(150_000_000 / total, 9);
    expect(find(samples, 'avaxmon_network_upgrade_activation_timestamp_seconds', { upgrade: 'apricotPhase4MinPChainHeight' })).toEqual([]);
  });
});

describe('a configured chain the node does not run', () => {
  it('is reported as not bootstrapped, logged once, without failing node_info', async () => {
    const stack = await startStack({ manualTime: true, targetYaml: 'chains: [2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM]' });
    try {
      const samples = await stack.time!.eventually(
        () => scrape(stack.url),
        (s) => (valueOf(s, 'avaxmon_rpc_requests_total', { method: 'info.isBootstrapped', outcome: 'rpc_error' }) ?? 0) >= 3,
      );
      expect(valueOf(samples, 'avaxmon_chain_bootstrapped', { chain: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM' })).toBe(0);
      expect(valueOf(samples, 'avaxmon_chain_bootstrapped', { chain: 'P' })).toBe(1);
      expect(valueOf(samples, 'avaxmon_collector_success', { collector: 'node_info' })).toBe(1);
      expect(stack.logs.filter((line) => line.includes('does not run this configured chain'))).toHaveLength(1);
    } finally {
      await stack.close();
    }
  });
});
