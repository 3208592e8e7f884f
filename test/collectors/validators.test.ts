import { afterEach, describe, expect, it } from 'vitest';
import { createPeersCollector } from '../../src/collectors/peers.js';
import { createValidatorsCollector } from '../../src/collectors/validators/collector.js';
import { chainWorld, l1Balance, primaryValidator, SIM_L1 } from '../../src/simulator/chain-world.js';
import { SIM_NODE_ID } from '../../src/simulator/state.js';
import { eventually, scrape, startStack, valueOf } from '../helpers/stack.js';
import { requestCount, series, SIM_SUBNETS_YAML, startHarness, value, type Harness } from './chain-harness.js';

const DAY = 86_400;
const HELICON_MAINNET = Date.parse('2026-09-22T15:00:00Z') / 1000;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function postP(url: string, params: unknown): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${url}/ext/bc/P`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getCurrentValidators', params }),
  });
  return ((await response.json()) as { result: { validators: Array<Record<string, unknown>> } }).result.validators;
}

/** The peers collector first, as the daemon runs it: the validators collector weighs its peers' views. */
async function runWithPeers(run: Harness, nowMs: number) {
  await run.run(createPeersCollector(), nowMs);
  return run.run(createValidatorsCollector(), nowMs);
}

async function postInfo(url: string, method: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/ext/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
  });
  return ((await response.json()) as { result: Record<string, unknown> }).result;
}

describe('validators collector', () => {
  it('exports the watched node from the network\'s view (the deciding share of its peers), its own entry kept as view="self"', async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    const me = chainWorld(harness.sim.state).validators[0];
    // Issue 23 case 5: connected to 85% of the stake, every connected validator seeing 99.5%
    // (observedUptime "99", truncated); info.uptime counts the other 15% as 0%.
    harness.sim.apply({ network_view: { connected: [{ stake: 85, observed: 99 }] } });
    // Run at exactly 30 days into the 90-day period, so the budget is the hand-worked one below.
    const samples = await runWithPeers(harness, (me.startTime + 30 * DAY) * 1000);
    const labels = { target: 'node-a', subnet: 'primary', node_id: SIM_NODE_ID };
    expect(requestCount(harness.self, 'info.getNodeID')).toBe(1);
    // The peers' views come from the peers collector's info.peers, the weights from one shared copy.
    expect(requestCount(harness.self, 'info.uptime')).toBe(0);
    expect(requestCount(harness.self, 'info.peers')).toBe(1);
    // The weights of the current set: its height first, then the set at it.
    expect(requestCount(harness.self, 'platform.getHeight')).toBe(1);
    expect(requestCount(harness.self, 'platform.getValidatorsAt')).toBe(1);
    expect(requestCount(harness.self, 'info.upgrades')).toBe(1);
    expect(value(samples, 'avaxmon_validator_active', labels)).toBe(1);
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'self' })).toBeCloseTo(0.999812, 9);
    // "99" is [99, 100): the midpoint, 99.5%, is what at least 75% of the connected stake sees.
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'network' })).toBeCloseTo(0.995, 9);
    expect(series(samples, 'avaxmon_validator_uptime_ratio', { view: 'target' })).toEqual([]);
    expect(value(samples, 'avaxmon_validator_connected', { ...labels, view: 'self' })).toBe(1);
    expect(value(samples, 'avaxmon_validator_weight_avax', labels)).toBe(me.weightNavax / 1e9);
    expect(value(samples, 'avaxmon_validator_start_timestamp_seconds', labels)).toBe(me.startTime);
    expect(value(samples, 'avaxmon_validator_end_timestamp_seconds', labels)).toBe(me.startTime + 90 * DAY);
    expect(value(samples, 'avaxmon_validator_potential_reward_avax', labels)).toBeCloseTo(me.potentialRewardNavax / 1e9, 9);
    expect(value(samples, 'avaxmon_validator_delegation_fee_ratio', labels)).toBeCloseTo(0.02, 9);
    expect(value(samples, 'avaxmon_validator_delegators', labels)).toBe(3);
    expect(value(samples, 'avaxmon_validator_delegator_weight_avax', labels)).toBe(3 * 25);
    // Started 30 days ago (2026-10), after Mainnet's heliconTime 2026-09-22T15:00:00Z: ACP-267's 90%.
    expect(me.startTime).toBeGreaterThanOrEqual(HELICON_MAINNET);
    expect(value(samples, 'avaxmon_validator_uptime_requirement_ratio', labels)).toBe(0.9);
    // (1 − 0.9)·90 d − (1 − 0.995)·30 d = 777,600 s − 12,960 s = 764,640 s, from the network's view
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { ...labels, view: 'network' })).toBeCloseTo(764_640, 3);
    // info.uptime's average, with the disconnected 15% at 0%, would have spent 30 d·(1 − ~0.84) ≈ 4.8 d instead.
    const average = Number((await postInfo(harness.sim.url, 'info.uptime')).weightedAveragePercentage);
    expect(average).toBeGreaterThan(84);
    expect(average).toBeLessThan(85);
    expect(value(samples, 'avaxmon_validator_downtime_allowance_seconds', labels)).toBeCloseTo(777_600, 3);
    expect(series(samples, 'avaxmon_validator_downtime_budget_seconds')).toHaveLength(1);
    expect(value(samples, 'avaxmon_validator_auto_renew', labels)).toBe(0);
    expect(value(samples, 'avaxmon_validator_next_period_seconds', labels)).toBeUndefined();
    // Sidecar mode never summarises the whole network.
    expect(series(samples, 'avaxmon_network_validators')).toEqual([]);
  });

  it('applies 0.8 to a validation that started before heliconTime and 0.9 from heliconTime on', async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    const labels = { subnet: 'primary', node_id: SIM_NODE_ID };
    harness.sim.apply({ network_view: { connected: [{ stake: 85, observed: 99 }] } });
    // One second before Helicon: the base requirement.
    harness.sim.apply({ validator_period: { start: '2026-09-22T14:59:59Z', days: 90 } });
    let samples = await runWithPeers(harness, (HELICON_MAINNET - 1 + 30 * DAY) * 1000);
    expect(value(samples, 'avaxmon_validator_uptime_requirement_ratio', labels)).toBe(0.8);
    // (1 − 0.8)·90 d − (1 − 0.995)·30 d = 1,555,200 − 12,960 = 1,542,240 s
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { ...labels, view: 'network' })).toBeCloseTo(1_542_240, 3);
    // Exactly at Helicon: ACP-267's 90%.
    harness.sim.apply({ validator_period: { start: '2026-09-22T15:00:00Z', days: 90 } });
    samples = await runWithPeers(harness, (HELICON_MAINNET + 30 * DAY) * 1000);
    expect(value(samples, 'avaxmon_validator_uptime_requirement_ratio', labels)).toBe(0.9);
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { ...labels, view: 'network' })).toBeCloseTo(764_640, 3);
  });

  it("reads the other validators from the target's view, and ACP-236 renewal from v1.15 fields", async () => {
    const fixed = primaryValidator(1, 0).nodeId;
    const renewing = primaryValidator(2, 0).nodeId;
    harness = await startHarness(`validators: { node_ids: [self, ${fixed}, ${renewing}] }`);
    const world = chainWorld(harness.sim.state);
    const entry = (await postP(harness.sim.url, { nodeIDs: [renewing] }))[0];
    expect(entry).toMatchObject({ nextPeriod: '1209600', autoCompoundRewardShares: '500000', validatorAuthority: { threshold: '1' } });
    let samples = await harness.run(createValidatorsCollector());
    const other = world.validators[1];
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { node_id: fixed, view: 'target' })).toBeCloseTo(other.uptimePercent / 100, 6);
    expect(value(samples, 'avaxmon_validator_connected', { node_id: fixed, view: 'target' })).toBe(Number(other.connected));
    expect(series(samples, 'avaxmon_validator_downtime_budget_seconds', { node_id: fixed })[0].labels.view).toBe('target');
    expect(value(samples, 'avaxmon_validator_auto_renew', { node_id: fixed })).toBe(0);
    expect(value(samples, 'avaxmon_validator_auto_renew', { node_id: renewing })).toBe(1);
    expect(value(samples, 'avaxmon_validator_next_period_seconds', { node_id: renewing })).toBe(14 * DAY);
    expect(value(samples, 'avaxmon_validator_auto_compound_ratio', { node_id: renewing })).toBe(0.5);
    // nextPeriod "0": the validator leaves at the end of this cycle.
    harness.sim.apply({ validator_auto_renew: { node_id: renewing, next_period_days: 0, auto_compound_percent: 25 } });
    samples = await harness.run(createValidatorsCollector());
    expect(value(samples, 'avaxmon_validator_auto_renew', { node_id: renewing })).toBe(0);
    expect(value(samples, 'avaxmon_validator_next_period_seconds', { node_id: renewing })).toBe(0);
    expect(value(samples, 'avaxmon_validator_auto_compound_ratio', { node_id: renewing })).toBe(0.25);
    // The validators collector never asks info.peers itself: the peers collector reads it.
    expect(requestCount(harness.self, 'info.peers')).toBe(0);
  });

  it("follows the network's view, not the node's own, into the budget; a validator leaving and rejoining", async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    const me = chainWorld(harness.sim.state).validators[0];
    const at30Days = (me.startTime + 30 * DAY) * 1000;
    const labels = { subnet: 'primary', node_id: SIM_NODE_ID };
    // The node's own entry says all is well; its peers see it at 30% ("30": 30.5%).
    harness.sim.apply({ network_view: { connected: [{ stake: 100, observed: 30 }] } });
    let samples = await runWithPeers(harness, at30Days);
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'self' })).toBeCloseTo(0.999812, 9);
    expect(value(samples, 'avaxmon_validator_connected', { ...labels, view: 'self' })).toBe(1);
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'network' })).toBeCloseTo(0.305, 9);
    // (1 − 0.9)·90 d − (1 − 0.305)·30 d = 777,600 − 1,801,440 = −1,023,840 s: this period's reward is lost.
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { ...labels, view: 'network' })).toBeCloseTo(-1_023_840, 3);

    // The self view falling does not move the budget: it is not what decides the reward.
    harness.sim.apply({ network_view: { connected: [{ stake: 85, observed: 99 }] }, validator_uptime: 30 });
    samples = await runWithPeers(harness, at30Days);
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { ...labels, view: 'network' })).toBeCloseTo(764_640, 3);

    // `self` means "this node, if it validates": leaving the set changes its role, it is no failure.
    harness.sim.apply({ validator_leave: 'self' });
    samples = await harness.run(createValidatorsCollector(), at30Days);
    expect(series(samples, 'avaxmon_validator_active')).toEqual([]);
    expect(value(samples, 'avaxmon_node_role', { role: 'api' })).toBe(1);
    expect(samples.filter((sample) => sample.name.startsWith('avaxmon_validator_'))).toEqual([]);

    harness.sim.apply({ validator_rejoin: 'self' });
    samples = await harness.run(createValidatorsCollector(), at30Days);
    expect(value(samples, 'avaxmon_validator_active', labels)).toBe(1);
    expect(value(samples, 'avaxmon_node_role', { role: 'primary_validator' })).toBe(1);
  });

  it("without fresh peers' views (the peers collector off or failing) leaves the network view and budget out, never guesses", async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    const me = chainWorld(harness.sim.state).validators[0];
    const at = (me.startTime + 30 * DAY) * 1000;
    const labels = { subnet: 'primary', node_id: SIM_NODE_ID };
    let samples = await harness.run(createValidatorsCollector(), at);
    expect(value(samples, 'avaxmon_validator_active', labels)).toBe(1);
    expect(value(samples, 'avaxmon_validator_end_timestamp_seconds', labels)).toBe(me.endTime);
    expect(series(samples, 'avaxmon_validator_uptime_ratio', { view: 'network' })).toEqual([]);
    expect(series(samples, 'avaxmon_validator_downtime_budget_seconds')).toEqual([]);
    // Views read more than 5 minutes ago are too old to stand for the network's.
    await harness.run(createPeersCollector(), at);
    samples = await harness.run(createValidatorsCollector(), at + 5 * 60_000 + 1);
    expect(series(samples, 'avaxmon_validator_downtime_budget_seconds')).toEqual([]);
    samples = await harness.run(createValidatorsCollector(), at + 5 * 60_000);
    expect(series(samples, 'avaxmon_validator_downtime_budget_seconds')).toHaveLength(1);
  });

  it('uses a configured requirement instead of ACP-267 for custom networks', async () => {
    harness = await startHarness('validators: { node_ids: [self], reward_uptime_requirement: 0.85 }');
    const me = chainWorld(harness.sim.state).validators[0];
    harness.sim.apply({ network_view: { connected: [{ stake: 85, observed: 99 }] } });
    const samples = await runWithPeers(harness, (me.startTime + 30 * DAY) * 1000);
    expect(value(samples, 'avaxmon_validator_uptime_requirement_ratio', { node_id: SIM_NODE_ID })).toBe(0.85);
    // (1 − 0.85)·90 d − (1 − 0.995)·30 d = 1,166,400 − 12,960 = 1,153,440 s
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { node_id: SIM_NODE_ID })).toBeCloseTo(1_153_440, 3);
  });

  it('without info.upgrades (info API off on a central target) holds every validation to 0.9, and logs it once', async () => {
    const other = primaryValidator(1, 0).nodeId;
    harness = await startHarness(`validators: { node_ids: [${other}] }`);
    harness.sim.apply({ disable_method: 'info.upgrades', validator_period: { node_id: other, start: '2026-01-05T00:00:00Z', days: 365 } });
    await harness.run(createValidatorsCollector());
    const samples = await harness.run(createValidatorsCollector());
    // Started long before Helicon, so 0.8 really; unknown must not read as the laxer rule.
    expect(value(samples, 'avaxmon_validator_uptime_requirement_ratio', { node_id: other })).toBe(0.9);
    expect(harness.logs.filter((line) => line.includes('No heliconTime from the node'))).toHaveLength(1);
  });

  it('on an API node watched as self: its role, no validator series, and the run succeeds', async () => {
    harness = await startHarness('validators: { node_ids: [self] }', { validator: false });
    const samples = await harness.run(createValidatorsCollector());
    expect(series(samples, 'avaxmon_node_role').map((sample) => [sample.labels.role, sample.value])).toEqual([['api', 1]]);
    expect(samples.filter((sample) => sample.name.startsWith('avaxmon_validator_'))).toEqual([]);
  });

  it('on an L1-only validator (ACP-77): role l1_validator, watched on its L1, nothing about the Primary Network', async () => {
    harness = await startHarness(`validators: { node_ids: [self] }\n${SIM_SUBNETS_YAML}`, { validator: false });
    const samples = await harness.run(createValidatorsCollector());
    expect(value(samples, 'avaxmon_node_role', { role: 'l1_validator' })).toBe(1);
    expect(value(samples, 'avaxmon_validator_active', { subnet: SIM_L1.name, node_id: SIM_NODE_ID })).toBe(1);
    expect(series(samples, 'avaxmon_validator_active', { subnet: 'primary' })).toEqual([]);
  });

  it('still exports active 0 for an explicitly listed node id that is not in the set', async () => {
    const stranger = 'NodeID-111111111111111111116DBWJs';
    harness = await startHarness(`validators: { node_ids: [self, ${stranger}] }`);
    const samples = await harness.run(createValidatorsCollector());
    expect(value(samples, 'avaxmon_validator_active', { subnet: 'primary', node_id: stranger })).toBe(0);
    expect(value(samples, 'avaxmon_node_role', { role: 'primary_validator' })).toBe(1);
  });

  it('keeps the set, expiry and renewal when info.upgrades fails, leaving out only what needs the Helicon time', async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    const me = chainWorld(harness.sim.state).validators[0];
    harness.sim.apply({ fault: { match: 'info.upgrades', kind: 'rpc_error', message: 'upgrade config not loaded' } });
    const at = (me.startTime + 30 * DAY) * 1000;
    const samples = await runWithPeers(harness, at);
    const labels = { subnet: 'primary', node_id: SIM_NODE_ID };
    expect(value(samples, 'avaxmon_validator_active', labels)).toBe(1);
    expect(value(samples, 'avaxmon_validator_end_timestamp_seconds', labels)).toBe(me.endTime);
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'self' })).toBeGreaterThan(0.9);
    expect(value(samples, 'avaxmon_collector_call_up', { collector: 'validators', method: 'info.upgrades' })).toBe(0);
    for (const name of [
      'avaxmon_validator_uptime_requirement_ratio',
      'avaxmon_validator_downtime_allowance_seconds',
      'avaxmon_validator_downtime_budget_seconds',
    ])
      expect(series(samples, name)).toEqual([]);
    await harness.run(createValidatorsCollector(), at);
    expect(harness.logs.filter((line) => line.includes('only the series that depend on it are left out'))).toHaveLength(1);

    harness.sim.apply({ clear_faults: true });
    const healed = await runWithPeers(harness, at);
    expect(value(healed, 'avaxmon_collector_call_up', { collector: 'validators', method: 'info.upgrades' })).toBe(1);
    expect(series(healed, 'avaxmon_validator_downtime_budget_seconds')).toHaveLength(1);
  });

  it('exports permissioned subnet stakers and L1 validators with balance and runway', async () => {
    harness = await startHarness(`validators: { node_ids: [self] }\n${SIM_SUBNETS_YAML}`);
    const world = chainWorld(harness.sim.state);
    const nowMs = Date.now();
    const samples = await harness.run(createValidatorsCollector(), nowMs);
    const permissioned = { subnet: 'permissioned', node_id: SIM_NODE_ID };
    expect(value(samples, 'avaxmon_validator_active', permissioned)).toBe(1);
    expect(value(samples, 'avaxmon_validator_consensus_weight', permissioned)).toBe(20);
    expect(value(samples, 'avaxmon_validator_weight_avax', permissioned)).toBeUndefined();
    expect(value(samples, 'avaxmon_validator_end_timestamp_seconds', permissioned)).toBe(world.subnets[0].stakers[0].endTime);
    // Permissioned subnet validators have no uptime, connected or reward fields.
    expect(value(samples, 'avaxmon_validator_uptime_ratio', permissioned)).toBeUndefined();
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', permissioned)).toBeUndefined();

    const l1 = { subnet: SIM_L1.name, node_id: SIM_NODE_ID };
    const mine = world.subnets[1].l1Validators[0];
    expect(value(samples, 'avaxmon_l1_validator_active', l1)).toBe(1);
    expect(value(samples, 'avaxmon_validator_active', l1)).toBe(1);
    expect(value(samples, 'avaxmon_l1_validator_weight', l1)).toBe(20);
    expect(value(samples, 'avaxmon_validator_consensus_weight', l1)).toBe(20);
    // L1 validators have no end time.
    expect(value(samples, 'avaxmon_validator_end_timestamp_seconds', l1)).toBeUndefined();
    expect(value(samples, 'avaxmon_l1_validator_info', { ...l1, validation_id: mine.validationId })).toBe(1);
    const balance = value(samples, 'avaxmon_l1_validator_balance_avax', l1)!;
    // 15 AVAX deposited, draining at 512 nAVAX/s since the world was made (well under a minute ago).
    expect(balance).toBeLessThanOrEqual(15);
    expect(balance).toBeGreaterThan(15 - (512 * 60) / 1e9);
    expect(value(samples, 'avaxmon_l1_validator_balance_runway_seconds', l1)).toBeCloseTo((balance * 1e9) / 512, 3);
    expect(value(samples, 'avaxmon_l1_validator_fee_price_avax_per_second', { target: 'node-a' })).toBe(512e-9);
  });

  it('reports a low L1 balance, an inactive L1 validator and a watched node outside a subnet', async () => {
    const inactiveNode = primaryValidator(4, 0).nodeId;
    harness = await startHarness(`validators: { node_ids: [self, ${inactiveNode}] }\n${SIM_SUBNETS_YAML}`);
    harness.sim.apply({ l1_balance: 0.5 });
    const samples = await harness.run(createValidatorsCollector());
    const mine = { subnet: SIM_L1.name, node_id: SIM_NODE_ID };
    const balance = value(samples, 'avaxmon_l1_validator_balance_avax', mine)!;
    expect(balance).toBeCloseTo(0.5, 4);
    // 0.5 AVAX at 512 nAVAX/s: 500,000,000 / 512 = 976,562.5 s, about 11.3 days.
    expect(value(samples, 'avaxmon_l1_validator_balance_runway_seconds', mine)).toBeCloseTo(976_562.5, -2);
    const inactive = { subnet: SIM_L1.name, node_id: inactiveNode };
    expect(value(samples, 'avaxmon_l1_validator_active', inactive)).toBe(0);
    expect(value(samples, 'avaxmon_validator_active', inactive)).toBe(0);
    expect(value(samples, 'avaxmon_l1_validator_balance_avax', inactive)).toBe(0);
    // No runway for an inactive validator: AvalancheL1ValidatorInactive fires, not BalanceLow too.
    expect(value(samples, 'avaxmon_l1_validator_balance_runway_seconds', inactive)).toBeUndefined();
    // The same node validates the primary network and the permissioned subnet too.
    expect(value(samples, 'avaxmon_validator_active', { subnet: 'primary', node_id: inactiveNode })).toBe(1);
  });

  it('drains L1 balances at the fee price over time', async () => {
    harness = await startHarness(`validators: { node_ids: [self] }\n${SIM_SUBNETS_YAML}`);
    const world = chainWorld(harness.sim.state);
    const mine = world.subnets[1].l1Validators[0];
    const start = Date.now();
    harness.sim.apply({ l1_fee_price: 10_000_000_000 }); // 10 AVAX per second
    await new Promise((resolve) => setTimeout(resolve, 150));
    const samples = await harness.run(createValidatorsCollector());
    const drained = 15 - value(samples, 'avaxmon_l1_validator_balance_avax', { subnet: SIM_L1.name, node_id: SIM_NODE_ID })!;
    expect(drained).toBeGreaterThanOrEqual(1);
    expect(drained).toBeLessThanOrEqual((10 * (Date.now() - start)) / 1000 + 0.1);
    expect(l1Balance(world, mine, Date.now())).toBeLessThan(14 * 1e9);
  });

  it('never sends an empty nodeIDs list, which would pull the whole set', async () => {
    harness = await startHarness(`validators: { node_ids: [] }\n${SIM_SUBNETS_YAML}`);
    const samples = await harness.run(createValidatorsCollector());
    expect(samples).toEqual([]);
    expect(requestCount(harness.self, 'platform.getCurrentValidators')).toBe(0);
  });

  it('summarises 2,000 validators network-wide with one request, and per-validator series only for watched nodes', async () => {
    harness = await startHarness('validators: { node_ids: [self], network_wide: true }', { validators: 2000 });
    const world = chainWorld(harness.sim.state);
    // Validator 7 ends within a day, but renews: its validation does not end.
    const renewing = world.validators[7];
    harness.sim.apply({ validator_auto_renew: renewing.nodeId });
    // A post-Helicon validation at 85%: above the old 80%, below its 90%.
    const late = world.validators.find((v, index) => index > 0 && v.startTime >= HELICON_MAINNET)!;
    harness.sim.apply({ validator_uptime: { node_id: late.nodeId, percent: 85 } });
    const nowMs = Date.now();
    const samples = await harness.run(createValidatorsCollector(), nowMs);
    expect(requestCount(harness.self, 'platform.getCurrentValidators')).toBe(1);
    const labels = { target: 'node-a', subnet: 'primary' };
    expect(value(samples, 'avaxmon_network_validators', labels)).toBe(2000);
    const weights = world.validators.map((v) => (v.weightNavax + v.delegatorWeightNavax) / 1e9);
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const connected = world.validators.reduce((sum, v, index) => sum + (v.connected ? weights[index] : 0), 0);
    expect(value(samples, 'avaxmon_network_validator_weight_avax', labels)).toBeCloseTo(total, 3);
    expect(value(samples, 'avaxmon_network_validator_connected_weight_avax', labels)).toBeCloseTo(connected, 3);
    expect(value(samples, 'avaxmon_network_validator_connected_ratio', labels)).toBeCloseTo(connected / total, 9);
    expect(value(samples, 'avaxmon_network_validator_connected_ratio', labels)).toBeLessThan(1);
    const uptimes = world.validators.map((v) => v.uptimePercent / 100).sort((a, b) => a - b);
    const requirementOf = (v: (typeof world.validators)[number]) => (v.startTime >= HELICON_MAINNET ? 0.9 : 0.8);
    const below = world.validators.filter((v) => v.uptimePercent / 100 < requirementOf(v)).length;
    expect(below).toBeGreaterThan(world.validators.filter((v) => v.uptimePercent / 100 < 0.8).length);
    expect(value(samples, 'avaxmon_network_validator_uptime_min_ratio', labels)).toBeCloseTo(uptimes[0], 6);
    expect(value(samples, 'avaxmon_network_validator_uptime_median_ratio', labels)).toBeCloseTo(uptimes[999], 6);
    expect(value(samples, 'avaxmon_network_validator_uptime_p10_ratio', labels)).toBeCloseTo(uptimes[199], 6);
    expect(value(samples, 'avaxmon_network_validator_uptime_p90_ratio', labels)).toBeCloseTo(uptimes[1799], 6);
    expect(value(samples, 'avaxmon_network_validators_below_uptime_requirement', labels)).toBe(below);
    const now = nowMs / 1000;
    const ending = world.validators.filter((v) => v !== renewing && v.endTime > now && v.endTime - now <= DAY).length;
    expect(renewing.endTime - now).toBeLessThanOrEqual(DAY);
    expect(ending).toBeGreaterThanOrEqual(50);
    expect(value(samples, 'avaxmon_network_validators_ending_within_24h', labels)).toBe(ending);
    // Per-validator series exist for the watched node only.
    expect(new Set(samples.filter((s) => s.labels.node_id !== undefined).map((s) => s.labels.node_id))).toEqual(new Set([SIM_NODE_ID]));
    expect(value(samples, 'avaxmon_validator_delegators', { node_id: SIM_NODE_ID })).toBe(3);
  });
});

describe('validator and chain collectors in the daemon', () => {
  it('are enabled by default and reach /metrics, with every run succeeding', async () => {
    const stack = await startStack({ targetYaml: `validators: { node_ids: [self] }\n${SIM_SUBNETS_YAML}` });
    try {
      const samples = await eventually(
        () => scrape(stack.url),
        (s) =>
          ['validators', 'l1_validators', 'fee_config', 'chain_progress'].every(
            (c) => valueOf(s, 'avaxmon_collector_success', { collector: c }) === 1,
          ),
      );
      expect(valueOf(samples, 'avaxmon_validator_active', { subnet: 'primary', node_id: SIM_NODE_ID })).toBe(1);
      expect(
        valueOf(samples, 'avaxmon_l1_validator_balance_runway_seconds', { subnet: SIM_L1.name, node_id: SIM_NODE_ID }),
      ).toBeGreaterThan(0);
      expect(valueOf(samples, 'avaxmon_subnet_validator_active', { subnet: SIM_L1.name, node_id: SIM_NODE_ID })).toBe(1);
      expect(valueOf(samples, 'avaxmon_evm_chain_id', { chain: 'C' })).toBe(43114);
      expect(valueOf(samples, 'avaxmon_chain_height', { chain: 'P' })).toBeGreaterThan(0);
    } finally {
      await stack.close();
    }
  });
});
