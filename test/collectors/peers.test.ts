import { afterEach, describe, expect, it } from 'vitest';
import { createPeersCollector } from '../../src/collectors/peers.js';
import { chainWorld } from '../../src/simulator/chain-world.js';
import { requestCount, series, startHarness, value, type Harness } from './chain-harness.js';

const AVAX = 1_000_000_000;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('peers collector', () => {
  it('normalises peer versions and puts an unparseable one in "other", so peers cannot mint label values', async () => {
    harness = await startHarness('', { peers: 5 });
    harness.sim.apply({ set_peer_version: { peer: 0, version: '<script>alert(1)</script>' } });
    harness.sim.apply({ set_peer_version: { peer: 1, version: 'avalanchego/1.13.5-rc.2 patched by me' } });
    const samples = await harness.run(createPeersCollector());
    const versions = series(samples, 'avaxmon_node_peers_by_version').map((sample) => sample.labels.version);
    expect(versions.every((version) => version === 'other' || /^avalanchego\/\d+\.\d+\.\d+$/.test(version))).toBe(true);
    expect(value(samples, 'avaxmon_node_peers_by_version', { version: 'other' })).toBe(1);
    expect(series(samples, 'avaxmon_node_peers_by_version').reduce((sum, sample) => sum + sample.value, 0)).toBe(5);
    expect(value(samples, 'avaxmon_node_peers_by_version', { version: 'avalanchego/1.13.5' })).toBe(2);
  });
});

describe('peers collector: statistics over validators, weighted by stake', () => {
  /** 20 peers; peers 0..9 are validators 1..10 of the simulated set, peers 10..19 are not validators. */
  async function tenValidatorPeers(): Promise<Harness> {
    const started = await startHarness('', { peers: 20, validators: 11 });
    const validators = chainWorld(started.sim.state).validators;
    for (const validator of validators) Object.assign(validator, { weightNavax: 2_000 * AVAX, delegatorWeightNavax: 0 });
    // Peer 0 holds most of the stake and sees this node at 50%; non-validators see it at 10%.
    Object.assign(validators[1], { weightNavax: 1_000_000 * AVAX });
    started.sim.state.peers.forEach((peer, index) => {
      peer.observedUptime = index === 0 ? 50 : index < 10 ? 99 : 10;
      peer.version = 'avalanchego/1.14.2';
    });
    started.sim.state.peers[0].version = 'avalanchego/1.15.1';
    return started;
  }

  it('leaves non-validators out and weighs the observed uptime by stake', async () => {
    harness = await tenValidatorPeers();
    const samples = await harness.run(createPeersCollector());
    expect(value(samples, 'avaxmon_node_peers')).toBe(20);
    expect(value(samples, 'avaxmon_node_validator_peers')).toBe(10);
    // 10% from the non-validators never counts; the big validator's 50% is the stake-weighted median.
    expect(value(samples, 'avaxmon_node_observed_uptime_min_ratio')).toBe(0.5);
    expect(value(samples, 'avaxmon_node_observed_uptime_median_ratio')).toBe(0.5);
    expect(value(samples, 'avaxmon_node_observed_uptime_p10_ratio')).toBe(0.5);
    expect(value(samples, 'avaxmon_node_api_available', { method: 'platform.getValidatorsAt' })).toBe(1);
  });

  it("leaves the node's own view of itself out of the deciding view it leaves for the validators collector", async () => {
    harness = await tenValidatorPeers();
    await harness.run(createPeersCollector());
    // Peer 0 holds most of the stake and sees this node at 50 %: it decides.
    expect(harness.facts.decidingUptime?.ratio).toBe(0.505);
    harness.facts.nodeId = harness.sim.state.peers[0].nodeId;
    await harness.run(createPeersCollector());
    // Were it this node itself, the other validators' 99 % decide.
    expect(harness.facts.decidingUptime?.ratio).toBe(0.995);
  });

  it('reports the stake share on a newer release next to the unweighted peer share', async () => {
    harness = await tenValidatorPeers();
    const samples = await harness.run(createPeersCollector());
    expect(value(samples, 'avaxmon_node_peers_newer_version_ratio')).toBe(1 / 20);
    expect(value(samples, 'avaxmon_node_peers_newer_version_stake_ratio')).toBeCloseTo(1_000_000 / (1_000_000 + 9 * 2_000), 9);
  });

  it('answers platform.getValidatorsAt as v1.15 marshals it and refetches the weights only every 10 minutes', async () => {
    harness = await tenValidatorPeers();
    const answer = (await (
      await fetch(`${harness.sim.url}/ext/bc/P`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getValidatorsAt', params: { height: 'proposed' } }),
      })
    ).json()) as { result: Record<string, { weight: string; publicKey: string }> };
    expect(answer.result[harness.sim.state.peers[0].nodeId].weight).toBe(String(1_000_000 * AVAX));
    const collector = createPeersCollector();
    const t0 = Date.now();
    await harness.run(collector, t0);
    await harness.run(collector, t0 + 9 * 60_000);
    expect(requestCount(harness.self, 'platform.getValidatorsAt')).toBe(1);
    await harness.run(collector, t0 + 11 * 60_000);
    expect(requestCount(harness.self, 'platform.getValidatorsAt')).toBe(2);
  });

  it('keeps the counts while the P-Chain bootstraps, leaving the weighted statistics out', async () => {
    harness = await tenValidatorPeers();
    harness.sim.apply({ chain_bootstrapping: 'P' });
    const collector = createPeersCollector();
    await harness.run(collector);
    const samples = await harness.run(collector);
    expect(value(samples, 'avaxmon_node_peers')).toBe(20);
    expect(value(samples, 'avaxmon_node_peers_newer_version_ratio')).toBe(1 / 20);
    expect(value(samples, 'avaxmon_node_api_available', { method: 'platform.getValidatorsAt' })).toBe(0);
    expect(series(samples, 'avaxmon_node_observed_uptime_median_ratio')).toEqual([]);
    expect(series(samples, 'avaxmon_node_peers_newer_version_stake_ratio')).toEqual([]);
    expect(harness.logs.filter((line) => line.includes('Validator weights unavailable'))).toHaveLength(1);
  });
});
