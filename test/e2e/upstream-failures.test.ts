import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { find, scrape, startStack, valueOf, type Stack } from '../helpers/stack.js';

/** Each fault: what the simulator does, and the outcome label avaxmon must count. */
const FAULTS: ReadonlyArray<{ kind: string; outcome: string; delay?: string }> = [
  { kind: 'slow', delay: '3s', outcome: 'timeout' },
  { kind: 'reset', outcome: 'reset' },
  { kind: 'http_500', outcome: 'http_5xx' },
  { kind: 'html', outcome: 'http_5xx' },
  { kind: 'truncated', outcome: 'bad_body' },
  { kind: 'rpc_error', outcome: 'rpc_error' },
  { kind: 'plain_503', outcome: 'http_5xx' },
];

describe('upstream failures', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ manualTime: true });
  });
  afterAll(() => stack.close());

  it.each(FAULTS)(
    '$kind: the peers series vanish, success goes to 0, the outcome is counted, then it recovers',
    async ({ kind, delay, outcome }) => {
      stack.sim.apply({ clear_faults: true });
      stack.sim.apply({ fault: { match: 'info.peers', kind, delay } });
      const failed = await stack.time!.eventually(
        () => scrape(stack.url),
        (s) =>
          valueOf(s, 'avaxmon_collector_success', { collector: 'peers' }) === 0 &&
          (valueOf(s, 'avaxmon_rpc_requests_total', { method: 'info.peers', outcome }) ?? 0) > 0,
      );
      expect(find(failed, 'avaxmon_node_peers')).toEqual([]);
      // One method failing while the node answers the others leaves the target up.
      expect(valueOf(failed, 'avaxmon_target_up')).toBe(1);
      expect(find(failed, 'avaxmon_node_peers_by_version')).toEqual([]);
      // Other collectors of the same target keep working.
      expect(valueOf(failed, 'avaxmon_collector_success', { collector: 'health' })).toBe(1);
      const logged = stack.logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find(
          (entry) => entry.msg === 'Collection failed' && entry.collector === 'peers' && JSON.stringify(entry.err).includes('info.peers'),
        );
      expect(logged?.target).toBe('node-a');
      stack.sim.apply({ clear_faults: true });
      const recovered = await stack.time!.eventually(
        () => scrape(stack.url),
        (s) => valueOf(s, 'avaxmon_collector_success', { collector: 'peers' }) === 1,
        10_000,
      );
      expect(valueOf(recovered, 'avaxmon_node_peers')).toBe(60);
      expect(valueOf(recovered, 'avaxmon_target_up')).toBe(1);
    },
  );

  it('a 503 health answer is an answer: the target stays up', async () => {
    stack.sim.apply({ fail_check: 'network' });
    const samples = await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => valueOf(s, 'avaxmon_node_healthy') === 0,
    );
    expect(valueOf(samples, 'avaxmon_target_up')).toBe(1);
    expect(valueOf(samples, 'avaxmon_collector_success', { collector: 'health' })).toBe(1);
    stack.sim.apply({ recover_check: 'network' });
  });

  it('reports a disabled node-specific method as unavailable, logged once, without failing the collector', async () => {
    stack.sim.apply({ disable_method: 'info.getVMs' });
    const samples = await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => valueOf(s, 'avaxmon_node_api_available', { method: 'info.getVMs' }) === 0,
    );
    expect(valueOf(samples, 'avaxmon_collector_success', { collector: 'node_info' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_node_info')).toBe(1);
    await stack.time!.eventually(
      () => scrape(stack.url),
      (s) => (valueOf(s, 'avaxmon_rpc_requests_total', { method: 'info.getVMs', outcome: 'unavailable' }) ?? 0) >= 3,
    );
    const warnings = stack.logs.filter((line) => line.includes('Node method is unavailable') && line.includes('info.getVMs'));
    expect(warnings).toHaveLength(1);
  });
});

describe('an unreachable target', () => {
  it('sets target_up 0, fails every collector, keeps serving, and names target, method and cause in the log', async () => {
    const stack = await startStack({ manualTime: true, targetUrl: `http://127.0.0.1:${await freePort()}` });
    try {
      const samples = await scrape(stack.url);
      expect(valueOf(samples, 'avaxmon_target_up', { target: 'node-a' })).toBe(0);
      for (const collector of ['health', 'node_info', 'peers', 'uptime', 'upgrades']) {
        expect(valueOf(samples, 'avaxmon_collector_success', { collector })).toBe(0);
      }
      expect(valueOf(samples, 'avaxmon_rpc_requests_total', { method: 'info.peers', outcome: 'refused' })).toBeGreaterThan(0);
      expect(find(samples, 'avaxmon_node_peers')).toEqual([]);
      const line = stack.logs.find((entry) => entry.includes('Collection failed') && entry.includes('"collector":"peers"'));
      expect(line).toMatch(/"target":"node-a"/);
      expect(line).toMatch(/node-a info\.peers: .*ECONNREFUSED/);
      expect((await fetch(`${stack.url}/-/healthy`)).status).toBe(200);
      // Later runs fail the same way: one warning for the target, its collectors at debug, so a dead
      // node is no warning storm (a collector may warn once, if it failed before the target was judged down).
      await stack.time!.eventually(
        () => scrape(stack.url),
        (s) => (valueOf(s, 'avaxmon_rpc_requests_total', { method: 'info.peers', outcome: 'refused' }) ?? 0) >= 3,
      );
      expect(stack.logs.filter((entry) => entry.includes('Target unreachable') && entry.includes('"level":"warn"'))).toHaveLength(1);
      const peersFailures = stack.logs.filter((entry) => entry.includes('Collection failed') && entry.includes('"collector":"peers"'));
      expect(peersFailures.filter((entry) => entry.includes('"level":"warn"')).length).toBeLessThanOrEqual(1);
      expect(peersFailures.filter((entry) => entry.includes('"level":"debug"')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await stack.close();
    }
  });
});

describe('a target that answers HTTP but is not AvalancheGo', () => {
  it('says so in one line naming the target and what to check; a real node never gets that line', async () => {
    const notANode = createServer((_, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>'));
    await new Promise<void>((resolve) => notANode.listen(0, '127.0.0.1', resolve));
    const stack = await startStack({ manualTime: true, targetUrl: `http://127.0.0.1:${(notANode.address() as AddressInfo).port}` });
    try {
      const lines = stack.logs.filter((entry) => entry.includes('but not as AvalancheGo'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/"level":"warn".*"target":"node-a"/);
      expect(lines[0]).toContain('port 9650 by default');
    } finally {
      await stack.close();
      notANode.close();
    }
    expect(stack.logs.some((entry) => entry.includes('Target unreachable'))).toBe(false);
  });

  it('is not said of a node whose APIs answer, even with errors', async () => {
    const stack = await startStack({ manualTime: true });
    try {
      stack.sim.apply({ fault: { match: 'info.peers', kind: 'html' } });
      await scrape(stack.url);
      expect(stack.logs.some((entry) => entry.includes('but not as AvalancheGo'))).toBe(false);
    } finally {
      await stack.close();
    }
  });
});

describe('a target that comes back', () => {
  it('runs its failed slow collectors at once, not at their next 5-minute tick', async () => {
    const port = await freePort();
    const stack = await startStack({
      manualTime: true,
      targetUrl: `http://127.0.0.1:${port}`,
      globalYaml: '{ timeout: 800ms }',
      targetYaml: 'collectors: { health: { interval: 1s }, node_info: { interval: 5m }, upgrades: { interval: 5m } }',
    });
    let node: Simulator | undefined;
    try {
      const down = await scrape(stack.url);
      expect(valueOf(down, 'avaxmon_target_up', { target: 'node-a' })).toBe(0);
      expect(valueOf(down, 'avaxmon_collector_success', { collector: 'node_info' })).toBe(0);
      node = await startSimulator({ port });
      // Well within one health interval plus the runs it sets off; the next node_info tick is minutes away.
      const back = await stack.time!.eventually(
        () => scrape(stack.url),
        (s) => valueOf(s, 'avaxmon_collector_success', { collector: 'node_info' }) === 1,
        5_000,
      );
      expect(valueOf(back, 'avaxmon_collector_success', { collector: 'upgrades' })).toBe(1);
      expect(find(back, 'avaxmon_node_info')).toHaveLength(1);
    } finally {
      await stack.close();
      await node?.close();
    }
  });
});
