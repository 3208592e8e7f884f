import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectorNames } from '../../src/collectors/names.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { eventually, find, scrape, startStack, valueOf, type Stack } from '../helpers/stack.js';

/** The answers a loaded node takes longest on: the whole validator set, its uptime tracking, its peers. */
const HEAVY = ['platform.getCurrentValidators', 'platform.getValidatorsAt', 'info.peers', 'info.uptime'];

describe('a slow node: every call answered in 3 s, the heavy ones in 4.5 s, under a 5 s timeout', () => {
  let slow: Simulator;
  let stack: Stack;

  beforeAll(async () => {
    slow = await startSimulator();
    // The first matching fault applies: heavy methods first, then every other call.
    for (const match of HEAVY) slow.apply({ fault: { match, kind: 'slow', delay: '4500ms' } });
    slow.apply({ fault: { match: '*', kind: 'slow', delay: '3s' } });
    stack = await startStack({ targetUrl: slow.url, globalYaml: '{ timeout: 5s }' });
  }, 60_000);
  afterAll(async () => {
    await stack.close();
    await slow.close();
  });

  it('fails no collector: each call is timed from when it is sent, not while it waits for a connection', async () => {
    const samples = await eventually(
      () => scrape(stack.url),
      (s) => find(s, 'avaxmon_collector_success', { target: 'node-a' }).length === collectorNames.length,
      45_000,
    );
    const failed = find(samples, 'avaxmon_collector_success', { target: 'node-a' }).filter((sample) => sample.value !== 1);
    expect(failed.map((sample) => sample.labels.collector)).toEqual([]);
    expect(find(samples, 'avaxmon_rpc_requests_total', { target: 'node-a', outcome: 'timeout' })).toEqual([]);
    expect(valueOf(samples, 'avaxmon_target_up', { target: 'node-a' })).toBe(1);
    // The validator pages can be decided: the watched validator's series exist.
    expect(find(samples, 'avaxmon_validator_end_timestamp_seconds').length).toBeGreaterThan(0);
    // avaxmon's own lateness is counted apart: the first round's bursts waited for connections.
    expect(valueOf(samples, 'avaxmon_request_queue_wait_seconds_total', { target: 'node-a' })).toBeGreaterThan(0);
  }, 60_000);
});
