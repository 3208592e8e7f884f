import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { drained, sec, startAlerting, targetUp, webhookAlerts, type Harness } from './harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** When chain_progress last read a target's heights. */
function readAt(target: string, seconds: number): Sample {
  return { name: 'avaxmon_collector_last_success_timestamp_seconds', labels: { target, collector: 'chain_progress' }, value: seconds };
}

/** One target's view of a chain: its height, when it last moved, and its network id. */
function chain(target: string, name: string, height: number, lastProgressSeconds: number, network = 1): Sample[] {
  return [
    targetUp(target),
    { name: 'avaxmon_node_network_id', labels: { target }, value: network },
    { name: 'avaxmon_chain_height', labels: { target, chain: name }, value: height },
    { name: 'avaxmon_chain_last_progress_timestamp_seconds', labels: { target, chain: name }, value: lastProgressSeconds },
  ];
}

describe('AvalancheChainStalled knows the chain', () => {
  it('an idle P-Chain, X-Chain or L1 alone never pages; the busy C-Chain alone does after 5m', async () => {
    const harness = await startAlerting("  group_by: ['...']\n  rules:\n    AvalancheChainStalled: { for: 0s }");
    harnesses.push(harness);
    const t0 = sec(0) / 1000;
    const samples = (['P', 'X', '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM', 'C'] as const).flatMap((name) =>
      chain('node-a', name, 100, t0),
    );
    harness.alerting.evaluate(samples, sec(0));
    harness.alerting.evaluate(samples, sec(3600));
    await drained(harness.alerting);
    expect(webhookAlerts(harness.hook).map((alert) => alert.labels.chain)).toEqual(['C']);
  });

  it('any chain pages when its height stops while the same chain moves past it on another target of the same network', async () => {
    const harness = await startAlerting("  group_by: ['...']\n  rules:\n    AvalancheChainStalled: { for: 0s }");
    harnesses.push(harness);
    const t0 = sec(0) / 1000;
    // node-b (mainnet) moves on; node-c is on Fuji (network 5) and is no reference for mainnet.
    const at = (seconds: number, bHeight: number) => [
      ...chain('node-a', 'P', 500, t0),
      ...chain('node-b', 'P', bHeight, t0 + seconds),
      ...chain('node-c', 'P', 9_000, t0 + seconds, 5),
    ];
    harness.alerting.evaluate(at(60, 500), sec(60));
    harness.alerting.evaluate(at(180, 500), sec(180));
    await drained(harness.alerting);
    // Same height on both: node-a is idle like node-b, not behind it.
    expect(harness.hook.requests).toHaveLength(0);
    harness.alerting.evaluate(at(200, 503), sec(200));
    await drained(harness.alerting);
    const [alert] = webhookAlerts(harness.hook);
    expect(alert.labels).toMatchObject({ alertname: 'AvalancheChainStalled', target: 'node-a', chain: 'P' });
    expect(alert.annotations.description).toBe(
      'The height of chain P on node-a had not moved for 3m 20s when last read (at 500) while node-b moved on to 503.',
    );
  });

  it('finds the target that moved past it when the highest target stalled too and the newest one lags behind', async () => {
    const harness = await startAlerting("  group_by: ['...']\n  rules:\n    AvalancheChainStalled: { for: 0s }");
    harnesses.push(harness);
    const t0 = sec(0) / 1000;
    // node-high stalled before node-a, at a greater height; node-lagging moves last but is below
    // node-a; node-healthy moved after node-a stopped and is past it: it is the reference.
    const samples = [
      ...chain('node-a', 'P', 500, t0),
      ...chain('node-high', 'P', 900, t0 - 60),
      ...chain('node-healthy', 'P', 520, t0 + 150),
      ...chain('node-lagging', 'P', 100, t0 + 200),
    ];
    harness.alerting.evaluate(samples, sec(200));
    await drained(harness.alerting);
    const alerts = webhookAlerts(harness.hook).filter((alert) => alert.labels.target === 'node-a');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].annotations.description).toBe(
      'The height of chain P on node-a had not moved for 3m 20s when last read (at 500) while node-healthy moved on to 520.',
    );
  });

  it('a late chain_progress run is not a stall: the chain is measured up to its last read, not to now', async () => {
    const harness = await startAlerting("  group_by: ['...']\n  rules:\n    AvalancheChainStalled: { for: 0s }");
    harnesses.push(harness);
    const t0 = sec(0) / 1000;
    // node-a's X moved at its last read, 10 minutes ago; its collector has been late since (a
    // starved daemon), while node-b was read just now, higher. Read again later, unmoved, it is stalled.
    const lateRead = [
      ...chain('node-a', 'X', 40, t0),
      readAt('node-a', t0),
      ...chain('node-b', 'X', 90, t0 + 600),
      readAt('node-b', t0 + 600),
    ];
    harness.alerting.evaluate(lateRead, sec(600));
    await drained(harness.alerting);
    expect(harness.hook.requests).toHaveLength(0);
    const readUnmoved = [
      ...chain('node-a', 'X', 40, t0),
      readAt('node-a', t0 + 610),
      ...chain('node-b', 'X', 91, t0 + 610),
      readAt('node-b', t0 + 610),
    ];
    harness.alerting.evaluate(readUnmoved, sec(610));
    await drained(harness.alerting);
    expect(webhookAlerts(harness.hook).map((alert) => alert.annotations.description)).toEqual([
      'The height of chain X on node-a had not moved for 10m 10s when last read (at 40) while node-b moved on to 91.',
    ]);
  });
});
