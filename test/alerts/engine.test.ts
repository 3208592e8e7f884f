import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertPlane } from '../../src/alerts/alert-plane.js';
import { parseConfig } from '../../src/config/load.js';
import type { AlertsConfig } from '../../src/config/alerts-schema.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { drained } from './harness.js';
import { startRecorder, statuses, type Recorder } from './recorder.js';

const log = pino({ level: 'silent' });
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function alertsConfig(yaml: string): AlertsConfig {
  return parseConfig(yaml).alerts!;
}

async function setup(rules: string, extra = ''): Promise<{ alerting: AlertPlane; hook: Recorder; stateDir: string }> {
  const hook = await startRecorder();
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-alerts-'));
  const config = alertsConfig(`alerts:
  state_dir: ${stateDir}
  group_wait: 0s      # these tests follow single alerts, not grouping
  group_interval: 0s
  group_by: ['...']
  retry: { initial_backoff: 50ms, max_backoff: 200ms }
  rules:
${rules}
  receivers:
    - { name: hook, type: webhook, url: ${hook.url}/hook }
${extra}`);
  const alerting = new AlertPlane(config, log);
  cleanups.push(async () => {
    await alerting.stop(0);
    await hook.close();
  });
  return { alerting, hook, stateDir };
}

const target = (name: string, up = 1): Sample => ({ name: 'avaxmon_target_up', labels: { target: name }, value: up });
const healthy = (value: number, name = 'validator-1'): Sample[] => [
  target(name),
  { name: 'avaxmon_node_healthy', labels: { target: name }, value },
  { name: 'avaxmon_health_check_passing', labels: { target: name, check: 'network' }, value },
];
const T0 = Date.parse('2026-01-01T00:00:00Z');
const sec = (seconds: number) => T0 + seconds * 1000;

describe('alert engine lifecycle', () => {
  it('goes pending, fires after `for`, resolves, with one notification each', async () => {
    const { alerting, hook } = await setup('    AvalancheNodeUnhealthy: { for: 1m }\n    AvalancheHealthCheckFailing: { enabled: false }');
    alerting.evaluate(healthy(0), sec(0));
    expect(alerting.activeAlerts()[0].state).toBe('pending');
    alerting.evaluate(healthy(0), sec(30));
    alerting.evaluate(healthy(0), sec(60));
    expect(alerting.activeAlerts()[0].state).toBe('firing');
    alerting.evaluate(healthy(0), sec(75));
    alerting.evaluate(healthy(1), sec(90));
    expect(alerting.activeAlerts()).toHaveLength(0);
    await hook.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
    const [firing, resolved] = hook.requests.map((request) => request.json as { alerts: Array<Record<string, unknown>> });
    expect(firing.alerts[0].startsAt).toBe('2026-01-01T00:00:00Z'); // Go's RFC 3339, as Alertmanager writes it
    expect(resolved.alerts[0].endsAt).toBe('2026-01-01T00:01:30Z');
    expect((firing.alerts[0].annotations as Record<string, string>).description).toContain('failing checks: network');
    expect(hook.requests[0].headers['idempotency-key']).not.toBe(hook.requests[1].headers['idempotency-key']);
  });

  it('never notifies a condition that flips back within `for`', async () => {
    const { alerting, hook } = await setup('    AvalancheNodeUnhealthy: { for: 1m }\n    AvalancheHealthCheckFailing: { for: 1m }');
    for (let second = 0; second < 600; second += 20) alerting.evaluate(healthy(second % 40 === 0 ? 0 : 1), sec(second));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.requests).toHaveLength(0);
    expect(alerting.activeAlerts()).toHaveLength(0);
  });

  it('re-sends a firing alert every repeat_interval', async () => {
    const { alerting, hook } = await setup(
      '    AvalancheNodeUnhealthy: { for: 0s }\n    AvalancheHealthCheckFailing: { enabled: false }',
      '  repeat_interval: 1h',
    );
    alerting.evaluate(healthy(0), sec(0));
    await hook.waitFor(1);
    // The repeat interval counts from when the delivery was logged, as in Alertmanager: wait for that,
    // not only for the receiver to have the request (a busy machine logs it after the next evaluation).
    await drained(alerting);
    alerting.evaluate(healthy(0), sec(1800));
    alerting.evaluate(healthy(0), sec(3600));
    await hook.waitFor(2);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'firing:AvalancheNodeUnhealthy']);
    expect(hook.requests[1].headers['idempotency-key']).toMatch(/-firing-1$/);
  });

  it('inhibits the other alerts of an unreachable target and pages once', async () => {
    const { alerting, hook } = await setup(
      '    AvaxmonTargetDown: { for: 0s }\n    AvalancheNodeUnhealthy: { for: 0s }\n    AvalancheHealthCheckFailing: { enabled: false }',
    );
    alerting.evaluate(healthy(0), sec(0));
    await hook.waitFor(1);
    // The node dies: its health series vanish with the failed collection, the target is down.
    alerting.evaluate([target('validator-1', 0)], sec(60));
    alerting.evaluate([target('validator-1', 0)], sec(120));
    await hook.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'firing:AvaxmonTargetDown']);
    // It comes back healthy: both resolve.
    alerting.evaluate(healthy(1), sec(180));
    await hook.waitFor(4);
    expect(statuses(hook.requests).slice(2).sort()).toEqual(['resolved:AvalancheNodeUnhealthy', 'resolved:AvaxmonTargetDown']);
  });

  it('routes by severity and label matchers, and honours send_resolved', async () => {
    const chat = await startRecorder();
    cleanups.push(() => chat.close());
    const { alerting, hook } = await setup(
      '    AvalancheNodeUnhealthy: { for: 0s }\n    AvalanchePeersLow: { for: 0s, threshold: 20 }\n    AvalancheHealthCheckFailing: { enabled: false }',
    );
    alerting.reconfigure(
      alertsConfig(`alerts:
  state_dir: ${alerting.config.stateDir}
  group_wait: 0s      # these tests follow single alerts, not grouping
  group_interval: 0s
  group_by: ['...']
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalanchePeersLow: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }
  receivers:
    - { name: hook, type: webhook, url: ${hook.url}/hook, severity: [critical], match: { target: validator-1 } }
    - { name: chat, type: webhook, url: ${chat.url}/chat, severity: [warning], send_resolved: false }`),
    );
    // Few peers on a healthy node: on an unhealthy one, its page explains them (a partition).
    const peers = (value: number) => [...healthy(1, 'api-1'), { name: 'avaxmon_node_peers', labels: { target: 'api-1' }, value }];
    const samples = [...healthy(0), ...healthy(0, 'other'), ...peers(3)];
    alerting.evaluate(samples, sec(0));
    alerting.evaluate([...healthy(1), ...healthy(1, 'other'), ...peers(30)], sec(60));
    await hook.waitFor(2);
    await chat.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
    expect((hook.requests[0].json as { commonLabels: Record<string, string> }).commonLabels.target).toBe('validator-1');
    expect(statuses(chat.requests)).toEqual(['firing:AvalanchePeersLow']);
  });
});

describe('rules over hand-built samples', () => {
  it('uptime dropping fires on a fall of more than 5 points within the window', async () => {
    const { alerting, hook } = await setup('    AvalancheUptimeLow: { enabled: false }');
    const uptime = (value: number) => [
      target('v'),
      { name: 'avaxmon_validator_uptime_ratio', labels: { target: 'v', subnet: 'primary', node_id: 'NodeID-v', view: 'network' }, value },
    ];
    alerting.evaluate(uptime(0.99), sec(0));
    alerting.evaluate(uptime(0.96), sec(600));
    expect(alerting.activeAlerts()).toHaveLength(0);
    alerting.evaluate(uptime(0.93), sec(1200));
    // Pending for its 5 minutes: a restart's dip would have recovered by now.
    expect(alerting.activeAlerts().map((alert) => alert.state)).toEqual(['pending']);
    alerting.evaluate(uptime(0.93), sec(1500));
    await hook.waitFor(1);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheUptimeDropping']);
  });

  it('stake expiring escalates info → warning as the end nears, with no critical tier', async () => {
    const { alerting } = await setup('    AvalancheStakeExpiring: {}');
    const end = sec(10 * 86_400);
    const samples = [
      target('v'),
      {
        name: 'avaxmon_validator_end_timestamp_seconds',
        labels: { target: 'v', subnet: 'primary', node_id: 'NodeID-x' },
        value: end / 1000,
      },
    ];
    const severityAt = (ms: number) => {
      alerting.evaluate(samples, ms);
      return alerting.activeAlerts().map((alert) => alert.labels.severity);
    };
    expect(severityAt(sec(0))).toEqual([]);
    expect(severityAt(end - 5 * 86_400_000)).toEqual(['info']);
    expect(severityAt(end - 12 * 3_600_000)).toEqual(['warning']);
    expect(severityAt(end - 1_800_000)).toEqual(['warning']);
    // Once ended, it says so for an hour (ended_notice), whether the series stay or go, then resolves.
    expect(severityAt(end + 1000)).toEqual(['info']);
    expect(alerting.activeAlerts()[0].annotations).toMatchObject({ ended_at: new Date(end).toISOString(), reward_earned: 'unknown' });
    samples.pop();
    expect(severityAt(end + 1_800_000)).toEqual(['info']);
    // Its series gone, it is held as missing data (5 minutes), then resolves.
    expect(severityAt(end + 3_600_000)).toEqual(['info']);
    expect(severityAt(end + 3_600_000 + 300_000)).toEqual([]);
  });

  it('stake expiring fires for a validator that leaves after this cycle, not for one that renews (ACP-236)', async () => {
    const { alerting } = await setup('    AvalancheStakeExpiring: {}');
    const end = sec(12 * 3_600);
    const of = (node_id: string, renews: number) => [
      { name: 'avaxmon_validator_end_timestamp_seconds', labels: { target: 'v', subnet: 'primary', node_id }, value: end / 1000 },
      { name: 'avaxmon_validator_auto_renew', labels: { target: 'v', subnet: 'primary', node_id }, value: renews },
    ];
    alerting.evaluate([target('v'), ...of('NodeID-renewing', 1), ...of('NodeID-exiting', 0)], sec(0));
    expect(alerting.activeAlerts().map((alert) => `${alert.labels.node_id}:${alert.labels.severity}`)).toEqual(['NodeID-exiting:warning']);
  });

  it('reward at risk tells an auto-renewed validator that missing this cycle removes it', async () => {
    const { alerting, hook } = await setup('    AvalancheRewardAtRisk: { for: 0s }');
    const labels = { target: 'v', subnet: 'primary', node_id: 'NodeID-x' };
    alerting.evaluate(
      [
        target('v'),
        { name: 'avaxmon_validator_downtime_budget_seconds', labels: { ...labels, view: 'network' }, value: -60 },
        { name: 'avaxmon_validator_auto_renew', labels, value: 1 },
      ],
      sec(0),
    );
    await hook.waitFor(1);
    const alert = (hook.requests[0].json as WebhookBody).alerts[0];
    expect(alert.labels).toMatchObject({ severity: 'critical', view: 'network' });
    expect(alert.annotations.description).toContain('as the deciding share of the stake sees it');
    expect(alert.annotations.description).toContain("this period's reward is lost");
    expect(alert.annotations.description).toContain('removes it from the validator set at the end of the cycle');
  });

  it("uptime low compares each validator with its own requirement and ignores the node's view of itself", async () => {
    const { alerting } = await setup('    AvalancheUptimeLow: { for: 0s }\n    AvalancheUptimeDropping: { enabled: false }');
    const uptime = (node_id: string, view: string, value: number): Sample => ({
      name: 'avaxmon_validator_uptime_ratio',
      labels: { target: 'v', subnet: 'primary', node_id, view },
      value,
    });
    const requirement = (node_id: string, value: number): Sample => ({
      name: 'avaxmon_validator_uptime_requirement_ratio',
      labels: { target: 'v', subnet: 'primary', node_id },
      value,
    });
    alerting.evaluate(
      [
        target('v'),
        // This node: its own entry says 100%, its peers see 85%, and it started after Helicon (0.9).
        uptime('NodeID-self', 'self', 1),
        uptime('NodeID-self', 'network', 0.85),
        requirement('NodeID-self', 0.9),
        // Another validator at 85% on a pre-Helicon validation (0.8): fine.
        uptime('NodeID-old', 'target', 0.85),
        requirement('NodeID-old', 0.8),
      ],
      sec(0),
    );
    expect(alerting.activeAlerts().map((alert) => `${alert.labels.node_id}:${alert.labels.view}`)).toEqual(['NodeID-self:network']);
  });

  it('an inactive L1 validator fires AvalancheL1ValidatorInactive alone, not NotActive or BalanceLow too', async () => {
    const { alerting } = await setup(
      '    AvalancheValidatorNotActive: { for: 0s }\n    AvalancheL1ValidatorInactive: { for: 0s }\n    AvalancheL1ValidatorBalanceLow: { for: 0s }',
    );
    const l1 = { target: 'v', subnet: 'beam', node_id: 'NodeID-x' };
    // What the validators collector exports for it: inactive, balance 0, no runway.
    alerting.evaluate(
      [
        target('v'),
        { name: 'avaxmon_validator_active', labels: l1, value: 0 },
        { name: 'avaxmon_l1_validator_active', labels: l1, value: 0 },
        { name: 'avaxmon_l1_validator_balance_avax', labels: l1, value: 0 },
        { name: 'avaxmon_validator_active', labels: { ...l1, subnet: 'primary' }, value: 0 },
      ],
      sec(0),
    );
    expect(
      alerting
        .activeAlerts()
        .map((alert) => `${alert.rule}:${alert.labels.subnet}`)
        .sort(),
    ).toEqual(['AvalancheL1ValidatorInactive:beam', 'AvalancheValidatorNotActive:primary']);
  });

  it('rewarding stake low warns below 75% (alpha/k) and never pages: it is a running ratio', async () => {
    const { alerting } = await setup('    AvalancheRewardingStakeLow: { for: 0s }');
    const severityAt = (ratio: number) => {
      alerting.evaluate(
        [target('v'), { name: 'avaxmon_node_uptime_rewarding_stake_ratio', labels: { target: 'v', subnet: 'primary' }, value: ratio }],
        sec(0),
      );
      return alerting.activeAlerts().map((alert) => alert.labels.severity);
    };
    expect(severityAt(0.95)).toEqual([]);
    // 85%: what partial connectivity alone gives (info.uptime counts disconnected stake as not rewarding).
    expect(severityAt(0.85)).toEqual([]);
    expect(severityAt(0.75)).toEqual([]);
    expect(severityAt(0.74)).toEqual(['warning']);
    expect(severityAt(0)).toEqual(['warning']);
  });

  it("reward at risk pages when the budget is nearly spent, against windows capped by the period's allowance", async () => {
    const { alerting } = await setup('    AvalancheRewardAtRisk: { for: 0s }');
    const labels = { target: 'v', subnet: 'primary', node_id: 'NodeID-x' };
    const severityAt = (budget: number, allowance: number) => {
      alerting.evaluate(
        [
          target('v'),
          { name: 'avaxmon_validator_downtime_budget_seconds', labels: { ...labels, view: 'network' }, value: budget },
          { name: 'avaxmon_validator_downtime_allowance_seconds', labels, value: allowance },
        ],
        sec(0),
      );
      return alerting.activeAlerts().map((alert) => alert.labels.severity);
    };
    const DAY = 86_400;
    // A one-year validation at 90% allows 36.5 days: a warning under 7 days, a page under one.
    const year = 36.5 * DAY;
    expect(severityAt(36 * DAY, year)).toEqual([]);
    expect(severityAt(7 * DAY, year)).toEqual([]);
    expect(severityAt(7 * DAY - 1, year)).toEqual(['warning']);
    expect(severityAt(DAY, year)).toEqual(['warning']);
    expect(severityAt(DAY - 1, year)).toEqual(['critical']);
    // A 14-day cycle at 90% allows 33.6 h: fresh, it is no risk; under half (16.8 h) it warns, under a quarter (8.4 h) it pages.
    const cycle = 0.1 * 14 * DAY;
    expect(severityAt(cycle, cycle)).toEqual([]);
    expect(severityAt(cycle / 2, cycle)).toEqual([]);
    expect(severityAt(cycle / 2 - 1, cycle)).toEqual(['warning']);
    expect(severityAt(cycle / 4 - 1, cycle)).toEqual(['critical']);
    // AvalancheGo v1.15 rewards uptime >= requirement (block/executor/options.go): exactly 0 still
    // earns the reward, but is as nearly spent as it gets; below 0 it is lost.
    expect(severityAt(0, cycle)).toEqual(['critical']);
    expect(severityAt(-1, year)).toEqual(['critical']);
  });

  it('reward at risk and L1 balance low pick warning or critical by threshold', async () => {
    const { alerting } = await setup('    AvalancheRewardAtRisk: { for: 0s }\n    AvalancheL1ValidatorBalanceLow: { for: 0s }');
    const labels = { target: 'v', subnet: 'primary', node_id: 'NodeID-x' };
    alerting.evaluate(
      [
        target('v'),
        { name: 'avaxmon_validator_downtime_budget_seconds', labels, value: 3 * 86_400 },
        { name: 'avaxmon_l1_validator_balance_runway_seconds', labels: { ...labels, subnet: 'l1' }, value: 3 * 86_400 },
      ],
      sec(0),
    );
    const bySeverity = alerting
      .activeAlerts()
      .map((alert) => `${alert.rule}:${alert.labels.severity}`)
      .sort();
    expect(bySeverity).toEqual(['AvalancheL1ValidatorBalanceLow:critical', 'AvalancheRewardAtRisk:warning']);
  });

  it('a stalled chain fires, then resolves on the first progress (hand-built samples)', async () => {
    const { alerting, hook } = await setup('    AvalancheChainStalled: { for: 1m, threshold: 5m }');
    const chain = (lastProgressMs: number) => [
      target('v'),
      { name: 'avaxmon_chain_last_progress_timestamp_seconds', labels: { target: 'v', chain: 'C' }, value: lastProgressMs / 1000 },
    ];
    alerting.evaluate(chain(sec(0)), sec(200));
    alerting.evaluate(chain(sec(0)), sec(301));
    alerting.evaluate(chain(sec(0)), sec(361));
    await hook.waitFor(1);
    alerting.evaluate(chain(sec(400)), sec(421));
    await hook.waitFor(2);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheChainStalled', 'resolved:AvalancheChainStalled']);
  });

  it('upgrade scheduled and version behind', async () => {
    const { alerting } = await setup('    AvalancheUpgradeScheduled: {}\n    AvalancheNodeVersionBehind: { for: 0s }');
    alerting.evaluate(
      [
        target('v'),
        {
          name: 'avaxmon_network_upgrade_activation_timestamp_seconds',
          labels: { target: 'v', upgrade: 'heliconTime' },
          value: sec(3 * 86_400) / 1000,
        },
        { name: 'avaxmon_network_upgrade_scheduled', labels: { target: 'v', upgrade: 'heliconTime' }, value: 1 },
        {
          name: 'avaxmon_network_upgrade_activation_timestamp_seconds',
          labels: { target: 'v', upgrade: 'graniteTime' },
          value: sec(-86_400) / 1000,
        },
        { name: 'avaxmon_network_upgrade_scheduled', labels: { target: 'v', upgrade: 'graniteTime' }, value: 1 },
        { name: 'avaxmon_node_peers_newer_version_ratio', labels: { target: 'v' }, value: 0.2 },
        { name: 'avaxmon_node_peers_newer_version_stake_ratio', labels: { target: 'v' }, value: 0.7 },
      ],
      sec(0),
    );
    expect(
      alerting
        .activeAlerts()
        .map((alert) => `${alert.rule}:${alert.labels.upgrade ?? ''}:${alert.state}`)
        .sort(),
    ).toEqual(['AvalancheNodeVersionBehind::firing', 'AvalancheUpgradeScheduled:heliconTime:firing']);
  });

  it('says what a failing health check measured: disk left, connected stake of a chain', async () => {
    const { alerting } = await setup('    AvalancheHealthCheckFailing: { for: 0s }');
    const check = (name: string) => ({ name: 'avaxmon_health_check_passing', labels: { target: 'v', check: name }, value: 0 });
    alerting.evaluate(
      [
        target('v'),
        check('diskspace'),
        check('C'),
        { name: 'avaxmon_health_disk_available_ratio', labels: { target: 'v' }, value: 0.08 },
        { name: 'avaxmon_health_disk_available_bytes', labels: { target: 'v' }, value: 40_000_000_000 },
        { name: 'avaxmon_health_chain_connected_stake_ratio', labels: { target: 'v', chain: 'C' }, value: 0.725 },
        { name: 'avaxmon_health_chain_connected_stake_ratio', labels: { target: 'v', chain: 'P' }, value: 1 },
      ],
      sec(0),
    );
    const description = (name: string) => alerting.activeAlerts().find((alert) => alert.labels.check === name)?.annotations.description;
    expect(description('diskspace')).toBe('Health check "diskspace" on v is failing. Disk available: 8.00% (40.0 GB).');
    expect(description('C')).toBe('Health check "C" on v is failing. Chain C: connected to 72.50% of the chain\'s stake.');
  });

  it("warns of an upgrade the node's own release does not know, from the stake its peers announce", async () => {
    const { alerting } = await setup('    AvalancheUpgradeScheduled: {}');
    // An outdated node: info.upgrades has nothing scheduled, but 80% of the stake announces Helicon.
    const outdated = (stake: number) => [
      target('v'),
      { name: 'avaxmon_network_upgrade_activation_timestamp_seconds', labels: { target: 'v', upgrade: 'helicon' }, value: 253_402_300_799 },
      { name: 'avaxmon_network_upgrade_scheduled', labels: { target: 'v', upgrade: 'helicon' }, value: 0 },
      { name: 'avaxmon_health_local_upgrade_timestamp_seconds', labels: { target: 'v' }, value: 1_763_568_000 },
      { name: 'avaxmon_health_peers_upgrade_timestamp_seconds', labels: { target: 'v' }, value: 1_790_089_200 },
      { name: 'avaxmon_health_peers_upgrade_stake_ratio', labels: { target: 'v' }, value: stake },
    ];
    alerting.evaluate(outdated(0.4), sec(0));
    expect(alerting.activeAlerts()).toEqual([]);
    alerting.evaluate(outdated(0.8), sec(60));
    const [alert] = alerting.activeAlerts();
    expect([alert.rule, alert.labels.upgrade, alert.labels.severity, alert.state]).toEqual([
      'AvalancheUpgradeScheduled',
      undefined,
      'warning',
      'firing',
    ]);
    expect(alert.annotations.description).toContain('80.00% of the stake');
    // Upgraded: the stake announces the time the node knows, and the warning resolves at once.
    alerting.evaluate(
      [
        ...outdated(0.8).slice(0, 3),
        { name: 'avaxmon_health_local_upgrade_timestamp_seconds', labels: { target: 'v' }, value: 1_790_089_200 },
        ...outdated(0.8).slice(4),
      ],
      sec(120),
    );
    expect(alerting.activeAlerts()).toEqual([]);
  });
});

describe('reload', () => {
  it('keeps alert state: a firing alert is not re-announced after a reconfigure', async () => {
    const { alerting, hook } = await setup('    AvalancheNodeUnhealthy: { for: 0s }\n    AvalancheHealthCheckFailing: { enabled: false }');
    alerting.evaluate(healthy(0), sec(0));
    await hook.waitFor(1);
    alerting.reconfigure({ ...alerting.config, repeatIntervalMs: 2 * 3_600_000 });
    alerting.evaluate(healthy(0), sec(60));
    alerting.evaluate(healthy(1), sec(120));
    await hook.waitFor(2);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
  });
});

describe('restart', () => {
  it('keeps firing alerts without re-announcing them and sends the due resolve', async () => {
    const { alerting, hook } = await setup('    AvalancheNodeUnhealthy: { for: 0s }\n    AvalancheHealthCheckFailing: { enabled: false }');
    alerting.evaluate(healthy(0), sec(0));
    await hook.waitFor(1);
    await alerting.stop(0);
    const again = new AlertPlane(alerting.config, log);
    cleanups.push(() => again.stop(0));
    again.evaluate(healthy(0), sec(60));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(hook.requests).toHaveLength(1);
    again.evaluate(healthy(1), sec(120));
    await hook.waitFor(2);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
  });
});

interface WebhookBody {
  status: string;
  alerts: Array<{ labels: Record<string, string>; annotations: Record<string, string>; fingerprint: string }>;
}
const webhookAlerts = (hook: Recorder) =>
  hook.requests.map((request) => {
    const body = request.json as WebhookBody;
    return {
      status: body.status,
      severity: body.alerts[0].labels.severity,
      fingerprint: body.alerts[0].fingerprint,
      key: request.headers['idempotency-key'],
    };
  });
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
const delivered = () => new Promise((resolve) => setTimeout(resolve, 60));

describe('identity without severity', () => {
  it('a tiered rule changing severity fires the new severity at once and resolves the old one in the same notification, without a new `for`', async () => {
    const { alerting, hook } = await setup('    AvalancheL1ValidatorBalanceLow: { for: 1m }');
    const runway = (days: number): Sample[] => [
      target('v'),
      {
        name: 'avaxmon_l1_validator_balance_runway_seconds',
        labels: { target: 'v', subnet: 'l1', node_id: 'NodeID-x' },
        value: days * 86_400,
      },
    ];
    alerting.evaluate(runway(20), sec(0));
    // Escalating while pending keeps `for` running from the first sighting.
    alerting.evaluate(runway(5), sec(30));
    alerting.evaluate(runway(5), sec(60));
    await hook.waitFor(1);
    alerting.evaluate(runway(20), sec(90));
    await hook.waitFor(2);
    alerting.evaluate(runway(4), sec(120));
    await hook.waitFor(3);
    alerting.evaluate(runway(40), sec(150));
    await hook.waitFor(4);
    await settle();
    const sent = webhookAlerts(hook);
    // As in Alertmanager, the old label set is another alert: it resolves in the notification that fires the new one.
    const alertsOf = (request: (typeof hook.requests)[number]) =>
      (request.json as { alerts: Array<{ status: string; labels: Record<string, string> }> }).alerts.map(
        (alert) => `${alert.status}:${alert.labels.severity}`,
      );
    expect(hook.requests.map(alertsOf)).toEqual([
      ['firing:critical'],
      ['resolved:critical', 'firing:warning'],
      ['resolved:warning', 'firing:critical'].sort(),
      ['resolved:critical'],
    ]);
    expect(sent.map((request) => request.status)).toEqual(['firing', 'firing', 'firing', 'resolved']);
    // Alertmanager's fingerprint covers the whole label set, severity included: one per severity.
    const fingerprints = hook.requests.flatMap((request) => (request.json as WebhookBody).alerts.map((alert) => alert.fingerprint));
    expect(new Set(fingerprints).size).toBe(2);
    expect(new Set(sent.map((alert) => alert.key)).size).toBe(4);
    expect((hook.requests[0].json as { alerts: Array<{ startsAt: string }> }).alerts[0].startsAt).toBe('2026-01-01T00:00:00Z');
  });
});

describe('restart of a rule that needs history', () => {
  it('keeps a firing AvalancheChainStalled alert when the collector’s last-progress time restarts at now', async () => {
    const { alerting, hook } = await setup('    AvalancheChainStalled: { for: 1m, threshold: 5m }');
    const chain = (lastProgressMs: number): Sample[] => [
      target('v'),
      { name: 'avaxmon_chain_last_progress_timestamp_seconds', labels: { target: 'v', chain: 'C' }, value: lastProgressMs / 1000 },
    ];
    for (let second = 0; second <= 400; second += 20) alerting.evaluate(chain(sec(0)), sec(second));
    await hook.waitFor(1);
    await alerting.stop(0);
    // The restarted collector first sees the (still stalled) height at the restart: last progress = now.
    const restartedAt = sec(1000);
    const again = new AlertPlane(alerting.config, log);
    cleanups.push(() => again.stop(0));
    for (let second = 1000; second <= 1600; second += 20) {
      again.evaluate(chain(restartedAt), sec(second));
      expect(again.activeAlerts().map((alert) => alert.state)).toEqual(['firing']);
    }
    await settle();
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheChainStalled']);
    again.evaluate(chain(sec(1610)), sec(1620));
    await hook.waitFor(2);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheChainStalled', 'resolved:AvalancheChainStalled']);
  });
});

describe('frozen and held alerts', () => {
  const amAlerts = (am: Recorder, alertname: string) =>
    am.requests.filter((request) => (request.json as Array<{ labels: Record<string, string> }>)[0].labels.alertname === alertname);

  async function withAlertmanager(): Promise<{ alerting: AlertPlane; hook: Recorder; am: Recorder }> {
    const am = await startRecorder();
    cleanups.push(() => am.close());
    const { alerting, hook } = await setup(
      '    AvaxmonTargetDown: { for: 0s }\n    AvalancheNodeUnhealthy: { for: 0s }\n    AvalancheHealthCheckFailing: { enabled: false }',
      `    - { name: am, type: alertmanager, url: ${am.url} }`,
    );
    return { alerting, hook, am };
  }

  it('keeps re-sending an inhibited alert to Alertmanager, but sends chat no reminders', async () => {
    const { alerting, hook, am } = await withAlertmanager();
    alerting.evaluate(healthy(0), sec(0));
    await am.waitFor(1);
    // Waits between evaluations: a reminder is not queued while the previous one still waits in the outbox.
    for (let second = 30; second <= 330; second += 30) {
      alerting.evaluate([target('validator-1', 0)], sec(second));
      await delivered();
    }
    await settle();
    // One resend a minute (ALERTMANAGER_RESEND_MS), so Alertmanager never sees its endsAt pass.
    expect(amAlerts(am, 'AvalancheNodeUnhealthy').length).toBeGreaterThanOrEqual(5);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'firing:AvaxmonTargetDown']);
  });

  it('keeps re-sending an alert held for unknown data to Alertmanager', async () => {
    const { alerting, hook, am } = await withAlertmanager();
    alerting.evaluate(healthy(0), sec(0));
    await am.waitFor(1);
    for (let second = 30; second <= 270; second += 30) {
      alerting.evaluate([target('validator-1')], sec(second));
      await delivered();
    }
    await settle();
    expect(amAlerts(am, 'AvalancheNodeUnhealthy').length).toBeGreaterThanOrEqual(4);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
  });

  it("holds per series: a missing validator uptime is unknown even while another validator's is collected", async () => {
    const { alerting, hook } = await setup('    AvalancheUptimeLow: { for: 0s }\n    AvalancheUptimeDropping: { enabled: false }');
    const node: Sample = {
      name: 'avaxmon_validator_uptime_ratio',
      labels: { target: 'v', subnet: 'primary', node_id: 'NodeID-self', view: 'network' },
      value: 0.5,
    };
    const validator: Sample = {
      name: 'avaxmon_validator_uptime_ratio',
      labels: { target: 'v', subnet: 'primary', node_id: 'NodeID-x', view: 'target' },
      value: 0.5,
    };
    alerting.evaluate([target('v'), node, validator], sec(0));
    await hook.waitFor(2);
    // NodeID-x leaves the watched set's answer; this node's series stays.
    alerting.evaluate([target('v'), node], sec(60));
    alerting.evaluate([target('v'), node], sec(120));
    await settle();
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheUptimeLow', 'firing:AvalancheUptimeLow']);
    alerting.evaluate([target('v'), node], sec(400));
    await hook.waitFor(3);
    expect((hook.requests[2].json as WebhookBody).alerts[0].labels.node_id).toBe('NodeID-x');
  });
});

describe('outbox write failures', () => {
  it('loses no notification: the next evaluation makes the same transition again', async () => {
    const { alerting, hook } = await setup('    AvalancheNodeUnhealthy: { for: 0s }\n    AvalancheHealthCheckFailing: { enabled: false }');
    const enqueue = alerting.outbox.enqueue.bind(alerting.outbox);
    let failNext = true;
    alerting.outbox.enqueue = (notifications, nowMs) => {
      if (failNext) {
        failNext = false;
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      }
      return enqueue(notifications, nowMs);
    };
    alerting.evaluate(healthy(0), sec(0));
    alerting.evaluate(healthy(0), sec(30));
    await hook.waitFor(1);
    failNext = true;
    alerting.evaluate(healthy(1), sec(60));
    expect(alerting.activeAlerts()).toHaveLength(1);
    alerting.evaluate(healthy(1), sec(90));
    await hook.waitFor(2);
    await settle();
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
    expect(alerting.activeAlerts()).toHaveLength(0);
  });
});
