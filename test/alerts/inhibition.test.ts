import { afterEach, describe, expect, it } from 'vitest';
import { renderAlertsSection } from '../../src/server/alerts-section.js';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { statuses } from './recorder.js';
import { drained, sec, startAlerting, targetUp, type Harness } from './harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function start(extra = ''): Promise<Harness> {
  const harness = await startAlerting(`  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { for: 0s }
    AvalanchePeersLow: { for: 0s }
${extra}`);
  harnesses.push(harness);
  return harness;
}

/** A node whose health endpoint says `healthy`, with the given failing checks. */
function node(healthy: number, failing: readonly string[], name = 'validator-1'): Sample[] {
  return [
    targetUp(name),
    { name: 'avaxmon_node_healthy', labels: { target: name }, value: healthy },
    ...['network', 'bootstrapped', 'bls', 'C'].map((check) => ({
      name: 'avaxmon_health_check_passing',
      labels: { target: name, check },
      value: failing.includes(check) ? 0 : 1,
    })),
  ];
}

describe('inhibition (Alertmanager inhibit_rules)', () => {
  it('by default, an unhealthy node sends one notification, not one per failing check; a check failing on its own is notified', async () => {
    const { alerting, hook } = await start();
    alerting.evaluate(node(0, ['network', 'bootstrapped', 'bls', 'C']), sec(0));
    await drained(alerting);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
    const muted = (alert: { fingerprint: string }) => alerting.verdicts.verdictOn(alert.fingerprint).muted;
    expect(alerting.activeAlerts().filter((alert) => muted(alert) === 'inhibited by AvalancheNodeUnhealthy on validator-1')).toHaveLength(
      4,
    );
    expect(renderAlertsSection(alerting, { detailed: true })).toContain('firing (inhibited by AvalancheNodeUnhealthy on validator-1)');
    // Another node's checks are not inhibited by this node.
    alerting.evaluate([...node(0, ['network', 'bootstrapped', 'bls', 'C']), ...node(1, ['C'], 'validator-2')], sec(30));
    await drained(alerting);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'firing:AvalancheHealthCheckFailing']);
    // validator-1: the node turns healthy while the bls check still fails: the check is notified now.
    alerting.evaluate([...node(1, ['bls']), ...node(1, ['C'], 'validator-2')], sec(60));
    await drained(alerting);
    // The check's group restates validator-2's failing check beside it, as Alertmanager would.
    expect(statuses(hook.requests).slice(2).sort()).toEqual([
      'firing:AvalancheHealthCheckFailing',
      'firing:AvalancheHealthCheckFailing',
      'resolved:AvalancheNodeUnhealthy',
    ]);
    // Inhibited checks that cleared were never notified, so they send no resolve.
    alerting.evaluate([...node(1, []), ...node(1, [], 'validator-2')], sec(90));
    await drained(alerting);
    expect(statuses(hook.requests).slice(5)).toEqual(['resolved:AvalancheHealthCheckFailing', 'resolved:AvalancheHealthCheckFailing']);
  });

  it('takes inhibit_rules from the config, replacing the defaults', async () => {
    const { alerting, hook } = await start(`  inhibit_rules:
    - source_matchers: [severity="critical"]
      target_matchers: ['severity=~"warning|info"']
      equal: [target]`);
    alerting.evaluate([...node(0, ['network']), { name: 'avaxmon_node_peers', labels: { target: 'validator-1' }, value: 2 }], sec(0));
    await drained(alerting);
    // The default node-unhealthy rule is gone, so the (warning) check is inhibited by this rule instead; peers too.
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
    expect(
      alerting
        .activeAlerts()
        .map((alert) => alerting.verdicts.verdictOn(alert.fingerprint).muted)
        .filter(Boolean),
    ).toHaveLength(2);
  });

  it('names a bad matcher in the config', () => {
    const bad = () =>
      parseConfig(`targets: [{ name: v, url: "http://127.0.0.1:9650" }]
alerts:
  inhibit_rules:
    - { source_matchers: ['alertname=~"("'], target_matchers: [severity="warning"] }`);
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (error) {
      expect((error as ConfigError).issues.map((issue) => issue.path).join(' ')).toContain('alerts.inhibit_rules[0].source_matchers[0]');
    }
  });
});
