import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ruleRegistry } from '../../src/alerts/evaluation/rules/index.js';
import { SampleIndex } from '../../src/alerts/evaluation/sample-index.js';
import { NodeClient } from '../../src/clients/avalanchego.js';
import { HttpClient } from '../../src/clients/http.js';
import type { Collector } from '../../src/collectors/collector.js';
import { createPeersCollector } from '../../src/collectors/peers.js';
import { createUptimeCollector } from '../../src/collectors/uptime.js';
import { createValidatorsCollector } from '../../src/collectors/validators/collector.js';
import { parseConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/runtime/log.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { SelfMetrics } from '../../src/metrics/self-metrics.js';
import { primaryValidator } from '../../src/simulator/chain-world.js';
import { captureStream } from '../helpers/stack.js';
import { startHarness, value } from './chain-harness.js';

const FIXTURES = new URL('../fixtures/avalanchego/', import.meta.url);
const NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const DAY = 86_400;

type Body = { result?: Record<string, unknown>; error?: unknown };
const fixture = (version: string, name: string): Body =>
  JSON.parse(readFileSync(new URL(`${version}/${name}.json`, FIXTURES), 'utf8')) as Body;

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

/** A node that answers each JSON-RPC method with a recorded body of one AvalancheGo version. */
async function fixtureNode(bodies: Record<string, Body>): Promise<string> {
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const { id, method } = JSON.parse(text) as { id: number; method: string };
      const body = bodies[method] ?? { jsonrpc: '2.0', error: { code: -32000, message: `method ${method} not found`, data: null } };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...body, id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs a collector once against the fixture node, watching `self`, after `before` (sharing their facts). */
async function collect(url: string, collector: Collector, nowMs = Date.now(), before: readonly Collector[] = []): Promise<Sample[]> {
  const target = parseConfig(`targets:\n  - { name: node-a, url: ${url}, validators: { node_ids: [self] } }\n`).targets[0];
  const http = new HttpClient({ maxResponseBytes: 1024 * 1024 });
  closers.push(() => http.close());
  const node = new NodeClient(http, new SelfMetrics({ version: 'test', revision: 'test' }), {
    target: target.name,
    baseUrl: url,
    headers: {},
    timeoutMs: 5000,
  });
  const log = createLogger('error', 'json', captureStream([]));
  const facts = { unavailableMethods: new Set<string>() };
  const context = () => ({ target, node, log, signal: new AbortController().signal, nowMs, memory: new Map(), facts });
  for (const first of before) await first.collect(context());
  return (await collector.collect(context())).samples;
}

function firing(rule: string, samples: Sample[], nowMs: number): Array<Record<string, string>> {
  const spec = ruleRegistry.get(rule)!;
  const params = Object.fromEntries(Object.entries(spec.params).map(([name, param]) => [name, param.default]));
  return spec
    .evaluate({ samples: new SampleIndex(samples), nowMs, params, memory: new Map() })
    .map((candidate) => ({ ...candidate.labels, severity: candidate.severity }));
}

/** Keys and JSON types, recursively: what "the same shape" means for two answers. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .map(([key, item]) => [key, shape(item)])
        .sort(),
    );
  return typeof value;
}

async function post(url: string, path: string, method: string, params: unknown = {}): Promise<Body> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as Body;
}

/** info.getNodeVersion's answer for a release. */
function nodeVersion(release: string): Record<string, unknown> {
  const vm = `v${release}`;
  return {
    version: `avalanchego/${release}`,
    databaseVersion: 'v1.4.5',
    rpcProtocolVersion: '42',
    gitCommit: '6e5acf909c7a16b991142d6b3979bac5699bdb68',
    vmVersions: { avm: vm, evm: 'v0.15.3', platform: vm },
  };
}

/** A node answering as the watched validator does on that AvalancheGo version, from the fixtures. */
function validatorNode(version: 'v1.14' | 'v1.15'): Promise<string> {
  return fixtureNode({
    'info.getNodeID': { result: { nodeID: NODE_ID } },
    'platform.getCurrentValidators': fixture(version, 'platform.getCurrentValidators'),
    'info.upgrades': fixture(version, 'info.upgrades'),
    'info.uptime': fixture(version, 'info.uptime'),
    'info.peers': fixture(version, 'info.peers'),
    'info.getNodeVersion': { result: nodeVersion(version === 'v1.14' ? '1.14.2' : '1.15.1') },
    'platform.getValidatorsAt': fixture(version, 'platform.getValidatorsAt'),
    'platform.getHeight': fixture(version, 'platform.getHeight'),
  });
}

describe('the same validator on AvalancheGo v1.14 and v1.15 answers', () => {
  it('v1.14: a fixed-period validation before Helicon needs 80%, and the budget uses what 75% of the connected stake sees', async () => {
    const url = await validatorNode('v1.14');
    const start = 1_787_616_000; // 2026-08-25, a 90-day period
    const nowMs = (start + 60 * DAY) * 1000;
    const samples = await collect(url, createValidatorsCollector(), nowMs, [createPeersCollector()]);
    const labels = { subnet: 'primary', node_id: NODE_ID };
    expect(value(samples, 'avaxmon_validator_uptime_requirement_ratio', labels)).toBe(0.8);
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'self' })).toBe(1);
    // Connected: 630,416.67 AVAX see "100", 339,583.33 see "88"; 28,000 are disconnected. info.uptime's
    // average is 93.125%, but 65% of the connected stake alone is short of the 75% a poll needs: the
    // uptime at least 75% of it sees is "88", i.e. [88, 89), 88.5%.
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'network' })).toBeCloseTo(0.885, 9);
    // (1 − 0.8)·90 d − (1 − 0.885)·60 d = 1,555,200 − 596,160 = 959,040 s (11.1 days; the average said 13.9)
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { ...labels, view: 'network' })).toBeCloseTo(959_040, 3);
    expect(value(samples, 'avaxmon_validator_auto_renew', labels)).toBe(0);
    expect(firing('AvalancheRewardAtRisk', samples, nowMs)).toEqual([]);
    // Ends in 30 days: not yet; 12 hours before the end it is a warning, as it will not renew.
    expect(firing('AvalancheStakeExpiring', samples, nowMs)).toEqual([]);
    expect(firing('AvalancheStakeExpiring', samples, (start + 90 * DAY - 12 * 3600) * 1000)).toEqual([
      { target: 'node-a', ...labels, severity: 'warning' },
    ]);
  });

  it('v1.15: an auto-renewed cycle after Helicon needs 90%; disconnected stake is unknown, not 0%, and it never "expires"', async () => {
    const url = await validatorNode('v1.15');
    const start = 1_794_787_200; // 2026-11-16, a 14-day cycle
    const nowMs = (start + 7 * DAY) * 1000;
    const samples = await collect(url, createValidatorsCollector(), nowMs, [createPeersCollector()]);
    const labels = { subnet: 'primary', node_id: NODE_ID };
    expect(value(samples, 'avaxmon_validator_uptime_requirement_ratio', labels)).toBe(0.9);
    expect(value(samples, 'avaxmon_validator_weight_avax', labels)).toBe(2150);
    expect(value(samples, 'avaxmon_validator_auto_renew', labels)).toBe(1);
    expect(value(samples, 'avaxmon_validator_next_period_seconds', labels)).toBe(1_209_600);
    expect(value(samples, 'avaxmon_validator_auto_compound_ratio', labels)).toBe(0.3);
    // Connected validators: 494,350 AVAX see "100", 287,500 "98", 180,000 "85" (a non-validator peer's
    // "0" has no stake and is skipped); 36,000 are disconnected. 781,850 of 961,850 connected (81%)
    // see at least "98": the deciding view is 98.5%.
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'network' })).toBeCloseTo(0.985, 9);
    // (1 − 0.9)·14 d − (1 − 0.985)·7 d = 120,960 − 9,072 = 111,888 s (31h 5m). info.uptime's average
    // (93.125%, the disconnected stake at 0%) would say 79,380 s (22h 3m).
    expect(value(samples, 'avaxmon_validator_downtime_budget_seconds', { ...labels, view: 'network' })).toBeCloseTo(111_888, 3);
    expect(value(samples, 'avaxmon_validator_uptime_ratio', { ...labels, view: 'self' })).toBe(1);
    // Half of the 33.6 h the cycle allows is 16.8 h: 31 h left is no risk (info.uptime's 22 h would have warned).
    expect(value(samples, 'avaxmon_validator_downtime_allowance_seconds', labels)).toBeCloseTo(120_960, 3);
    expect(firing('AvalancheRewardAtRisk', samples, nowMs)).toEqual([]);
    expect(firing('AvalancheUptimeLow', samples, nowMs)).toEqual([]);
    // Twelve hours before the cycle ends: it renews, so nothing expires.
    expect(firing('AvalancheStakeExpiring', samples, (start + 14 * DAY - 12 * 3600) * 1000)).toEqual([]);
  });

  it('v1.15: rewardingStakePercentage 78.4% is above the 75% a poll needs: no warning', async () => {
    const url = await fixtureNode({ 'info.uptime': fixture('v1.15', 'info.uptime') });
    const samples = await collect(url, createUptimeCollector());
    expect(value(samples, 'avaxmon_node_uptime_rewarding_stake_ratio')).toBeCloseTo(0.784, 9);
    expect(firing('AvalancheRewardingStakeLow', samples, Date.now())).toEqual([]);
  });

  it('v1.15: a node that is not a validator is reported as such, not as a failure', async () => {
    const url = await fixtureNode({ 'info.uptime': fixture('v1.15', 'info.uptime.not-a-validator') });
    const samples = await collect(url, createUptimeCollector());
    expect(samples.map((sample) => [sample.name, sample.value])).toEqual([['avaxmon_node_validating', 0]]);
  });
});

describe('the simulator answers in the v1.15 shapes', () => {
  it("for an auto-renewed and a fixed-period validator, info.upgrades, info.acps and a non-validator's info.uptime", async () => {
    const harness = await startHarness('validators: { node_ids: [self] }');
    closers.push(() => harness.close());
    const url = harness.sim.url;
    const [renewing, fixed] = [primaryValidator(2, 0).nodeId, primaryValidator(1, 0).nodeId];
    const listed = (await post(url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [renewing, fixed] })).result!
      .validators as Array<{ nodeID: string }>;
    const entries = [renewing, fixed].map((nodeId) => listed.find((entry) => entry.nodeID === nodeId));
    const [v115, v114] = [fixture('v1.15', 'platform.getCurrentValidators'), fixture('v1.14', 'platform.getCurrentValidators')].map(
      (body) => (body.result!.validators as unknown[])[0],
    );
    expect(shape(entries[0])).toEqual(shape(v115));
    expect(shape(entries[1])).toEqual(shape(v114));
    expect(shape((await post(url, '/ext/info', 'info.upgrades')).result)).toEqual(shape(fixture('v1.15', 'info.upgrades').result));
    expect((await post(url, '/ext/info', 'info.upgrades')).result!.heliconTime).toBe('2026-09-22T15:00:00Z');
    const acps = (await post(url, '/ext/info', 'info.acps')).result!.acps as Record<string, unknown>;
    const recorded = Object.values(fixture('v1.15', 'info.acps').result!.acps as Record<string, unknown>)[0];
    for (const vote of Object.values(acps)) expect(shape(vote)).toEqual(shape(recorded));
    expect(Object.values(acps).every((vote) => (vote as { supporters: string[] }).supporters.length > 0)).toBe(true);
    expect(shape((await post(url, '/ext/info', 'info.uptime')).result)).toEqual(shape(fixture('v1.15', 'info.uptime').result));
    harness.sim.apply({ validator_leave: 'self' });
    const refused = await post(url, '/ext/info', 'info.uptime');
    expect(refused).toEqual({ ...fixture('v1.15', 'info.uptime.not-a-validator'), id: 1 });
  });
});
