import { afterEach, describe, expect, it } from 'vitest';
import { AnswerCache, HEALTH_CHECK_FREQUENCY_MS } from '../../src/simulator/answer-cache.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { chainWorld } from '../../src/simulator/chain-world.js';
import { methodHandlers } from '../../src/simulator/handlers/index.js';
import { createState } from '../../src/simulator/state.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function call(method: string, params: unknown = {}, id: unknown = 1, path = '/ext/info'): Promise<Record<string, unknown>> {
  const response = await fetch(`${sim!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('simulate --cache-answers', () => {
  it('answers a state-only method the same, with each request id, until a step changes the state', async () => {
    sim = await startSimulator({ peers: 30, cacheAnswers: true });
    const first = await call('info.peers', {}, 7);
    const again = await call('info.peers', {}, 'eight');
    expect(again.id).toBe('eight');
    expect(first.id).toBe(7);
    expect(again.result).toEqual(first.result);
    sim.apply({ set_peer_version: { peer: 2, version: 'avalanchego/1.15.0' } });
    const after = (await call('info.peers', {}, 9)).result as { peers: { version: string }[] };
    expect(after.peers[2].version).toBe('avalanchego/1.15.0');
  });

  it('keeps answers apart by their parameters', async () => {
    sim = await startSimulator({ peers: 30, cacheAnswers: true });
    const all = (await call('info.peers')).result as { numPeers: string; peers: { nodeID: string }[] };
    const one = (await call('info.peers', { nodeIDs: [all.peers[3].nodeID] })).result as { numPeers: string };
    expect([all.numPeers, one.numPeers]).toEqual(['30', '1']);
  });

  it('asks a method that reads the clock every time', async () => {
    let nowMs = Date.now();
    sim = await startSimulator({ cacheAnswers: true, now: () => nowMs });
    const before = (await call('platform.getHeight', {}, 1, '/ext/bc/P')).result as { height: string };
    nowMs += 600_000;
    const later = (await call('platform.getHeight', {}, 1, '/ext/bc/P')).result as { height: string };
    expect(Number(later.height)).toBeGreaterThan(Number(before.height));
  });

  it('keeps a health report for a health-check period, as the node answers from its last run of the checks', async () => {
    let nowMs = Date.now();
    sim = await startSimulator({ cacheAnswers: true, now: () => nowMs });
    const timestamp = async () => {
      const response = await fetch(`${sim!.url}/ext/health`);
      const report = (await response.json()) as { checks: { network: { timestamp: string } } };
      return { status: response.status, at: report.checks.network.timestamp };
    };
    const first = await timestamp();
    nowMs += HEALTH_CHECK_FREQUENCY_MS - 1;
    expect(await timestamp()).toEqual(first);
    nowMs += 1;
    const next = await timestamp();
    expect(next.at).not.toBe(first.at);
    sim.apply({ fail_check: 'network' });
    expect((await timestamp()).status).toBe(503);
    expect(((await call('health.health', {}, 1, '/ext/health')).result as { healthy: boolean }).healthy).toBe(false);
  });

  it('keeps a bounded number of answers, letting the oldest go (getValidatorsAt is asked at each new height)', () => {
    const cache = new AnswerCache();
    const state = createState({});
    let calls = 0;
    const handler = (params: Record<string, unknown>) => {
      calls += 1;
      return params.height;
    };
    const ask = (height: number) => cache.json(`getValidatorsAt ${height}`, handler, { height }, state, 0);
    ask(0);
    ask(0);
    expect(calls).toBe(1);
    for (let height = 1; height <= 64; height++) ask(height);
    ask(64);
    expect(calls).toBe(65);
    expect(ask(0).json).toBe('0');
    expect(calls).toBe(66);
  });

  it("keeps the primary network's validators, which read no clock, and answers an L1's validators at each call", () => {
    const cache = new AnswerCache();
    const state = createState({ validators: 20 });
    const handler = methodHandlers['platform.getCurrentValidators'];
    const primary = (nowMs: number) => cache.json('primary', handler, {}, state, nowMs);
    expect(primary(0)).toBe(primary(3_600_000));
    const subnetID = chainWorld(state, 0).subnets.find((subnet) => subnet.l1Validators.length > 0)!.subnetId;
    const l1 = (nowMs: number) => cache.json('l1', handler, { subnetID }, state, nowMs);
    expect(l1(0)).not.toBe(l1(0));
  });
});
