import { afterEach, describe, expect, it } from 'vitest';
import { createUptimeCollector } from '../../src/collectors/uptime.js';
import { requestCount, startHarness, value, type Harness } from './chain-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function postInfo(url: string, method: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/ext/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('uptime collector', () => {
  it("reports a validating node with the network's view of its uptime and the stake that would reward it", async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    harness.sim.apply({ network_uptime: { weighted: 91.25, rewarding: 62.5 } });
    const samples = await harness.run(createUptimeCollector());
    const labels = { target: 'node-a', subnet: 'primary' };
    expect(value(samples, 'avaxmon_node_validating', labels)).toBe(1);
    expect(value(samples, 'avaxmon_node_uptime_weighted_average_ratio', labels)).toBeCloseTo(0.9125, 9);
    expect(value(samples, 'avaxmon_node_uptime_rewarding_stake_ratio', labels)).toBeCloseTo(0.625, 9);
  });

  it('reports a node that is not a validator as not validating, and the run succeeds', async () => {
    harness = await startHarness('validators: { node_ids: [self] }', { validator: false });
    // The real answer: HTTP 200 with a gorilla -32000 error.
    expect((await postInfo(harness.sim.url, 'info.uptime')).error).toEqual({
      code: -32000,
      message: "couldn't get node uptime: node is not a validator",
      data: null,
    });
    const samples = await harness.run(createUptimeCollector());
    expect(samples.map((sample) => [sample.name, sample.value])).toEqual([['avaxmon_node_validating', 0]]);
    expect(requestCount(harness.self, 'info.uptime', 'rpc_error')).toBe(1);
  });

  it('still fails the run on any other error', async () => {
    harness = await startHarness('validators: { node_ids: [self] }');
    harness.sim.apply({ fault: { match: 'info.uptime', kind: 'rpc_error' } });
    await expect(harness.run(createUptimeCollector())).rejects.toThrow(/info\.uptime/);
  });
});
