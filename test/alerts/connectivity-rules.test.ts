import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { drained, sec, startAlerting, targetUp, webhookAlerts, type Harness } from './harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function start(rules: string): Promise<Harness> {
  const harness = await startAlerting(`  group_by: ['...']\n  group_wait: 0s\n  group_interval: 0s\n  rules:\n${rules}`);
  harnesses.push(harness);
  return harness;
}

const sample = (name: string, labels: Record<string, string>, value: number): Sample => ({
  name,
  labels: { target: 'node-a', ...labels },
  value,
});

describe('connectivity, readiness and L1 validator rules over v1.15-shaped series', () => {
  it('AvalanchePeersLow is relative to the primary network’s validator count, and falls back to 20 without it', async () => {
    const { alerting, hook } = await start('    AvalanchePeersLow: { for: 0s }');
    // Mainnet: 1,500 validators, 600 peers: too few, though far above 20.
    alerting.evaluate(
      [targetUp('node-a'), sample('avaxmon_node_peers', {}, 600), sample('avaxmon_network_validators', { subnet: 'primary' }, 1500)],
      sec(0),
    );
    await drained(alerting);
    expect(webhookAlerts(hook)[0].annotations.description).toBe(
      'node-a is connected to 600 peers, fewer than 50% of the 1500 primary-network validators (750).',
    );
    // Fuji-sized network, 30 peers of 40 validators: fine; without the count, 30 >= 20: fine too.
    alerting.evaluate(
      [targetUp('node-a'), sample('avaxmon_node_peers', {}, 30), sample('avaxmon_network_validators', { subnet: 'primary' }, 40)],
      sec(60),
    );
    alerting.evaluate([targetUp('node-a'), sample('avaxmon_node_peers', {}, 30)], sec(120));
    await drained(alerting);
    expect(webhookAlerts(hook).map((alert) => alert.status)).toEqual(['firing', 'resolved']);
    alerting.evaluate([targetUp('node-a'), sample('avaxmon_node_peers', {}, 12)], sec(180));
    await drained(alerting);
    expect(webhookAlerts(hook)[2].annotations.description).toBe('node-a is connected to 12 peers, below the threshold of 20.');
  });

  it('connected stake per subnet, readiness per tag, L1 validator connected and uptime', async () => {
    const { alerting, hook } = await start(
      ['AvalancheStakeConnectedLow', 'AvalancheNodeNotReady', 'AvalancheL1ValidatorDisconnected', 'AvalancheL1ValidatorUptimeLow']
        .map((rule) => `    ${rule}: { for: 0s }`)
        .join('\n'),
    );
    const l1 = { subnet: 'l1-a', node_id: 'NodeID-a' };
    alerting.evaluate(
      [
        targetUp('node-a'),
        sample('avaxmon_network_validator_connected_ratio', { subnet: 'primary' }, 0.95),
        sample('avaxmon_network_validator_connected_ratio', { subnet: 'l1-a' }, 0.6),
        sample('avaxmon_node_ready', {}, 1),
        sample('avaxmon_health_tag_ready', { tag: 'l1-a' }, 0),
        sample('avaxmon_subnet_validator_connected', l1, 0),
        sample('avaxmon_subnet_validator_uptime_ratio', l1, 0.7),
      ],
      sec(0),
    );
    await drained(alerting);
    const fired = webhookAlerts(hook)
      .map((alert) => `${alert.labels.alertname}:${alert.labels.severity}:${alert.labels.subnet ?? alert.labels.tag}`)
      .sort();
    expect(fired).toEqual([
      'AvalancheL1ValidatorDisconnected:critical:l1-a',
      'AvalancheL1ValidatorUptimeLow:warning:l1-a',
      'AvalancheNodeNotReady:warning:l1-a',
      'AvalancheStakeConnectedLow:critical:l1-a',
    ]);
  });
});
