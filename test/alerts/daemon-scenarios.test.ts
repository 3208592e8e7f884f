import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, scrape, startStack, valueOf, type Stack } from '../helpers/stack.js';
import { startRecorder, type RecordedRequest, type Recorder } from './recorder.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A simulator, a daemon collecting every 1s, and a webhook receiver on loopback. */
/** With `manualTime`, collection, evaluation and delivery move on the test's clock (stack.time). */
async function alertStack(rules: string, options: { manualTime?: boolean } = {}): Promise<{ stack: Stack; hook: Recorder }> {
  const hook = await startRecorder();
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-alert-e2e-'));
  const stack = await startStack({
    extraYaml: `alerts:
  state_dir: ${stateDir}
  group_wait: 0s      # these tests follow single alerts, not grouping delays
  group_interval: 0s
  retry: { initial_backoff: 200ms, max_backoff: 500ms }
  rules:
${rules.replace(/^/gm, '    ')}
  receivers:
    - { name: hook, type: webhook, url: ${hook.url}/hook/secret-path-123 }
`,
    manualTime: options.manualTime,
  });
  cleanups.push(async () => {
    await stack.close();
    await hook.close();
  });
  return { stack, hook };
}

/** "status:alertname" of each webhook request about the given rule (and labels). */
function notificationsOf(requests: readonly RecordedRequest[], rule: string, labels: Record<string, string> = {}): string[] {
  return requests
    .flatMap((request) => (request.json as { alerts: Array<{ status: string; labels: Record<string, string> }> }).alerts)
    .filter((alert) => alert.labels.alertname === rule)
    .filter((alert) => Object.entries(labels).every(([key, value]) => alert.labels[key] === value))
    .map((alert) => `${alert.status}:${alert.labels.alertname}`);
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('alerts through the simulator and the daemon', () => {
  it('health flips and recovers: one firing and one resolved notification', async () => {
    const rules =
      'AvalancheNodeUnhealthy: { for: 2s }\nAvalancheHealthCheckFailing: { enabled: false }\nAvalancheSubnetUnhealthy: { enabled: false }';
    const { stack, hook } = await alertStack(rules, { manualTime: true });
    const time = stack.time!;
    const unhealthy = () => notificationsOf(hook.requests, 'AvalancheNodeUnhealthy');
    stack.sim.apply({ fail_check: { check: 'network', error: 'not connected to enough stake' } });
    // The first run to see the failure comes within the 1 s interval: pending, not firing, until 2 s later.
    await time.advance(1500);
    expect(unhealthy()).toEqual([]);
    await time.advanceUntil(() => unhealthy().length === 1, 2000);
    const firing = hook.requests.find((request) => (request.json as { status: string }).status === 'firing')!;
    expect((firing.json as { alerts: Array<{ annotations: Record<string, string> }> }).alerts[0].annotations.description).toContain(
      'network',
    );
    const page = await (await fetch(stack.url)).text();
    expect(page).toContain('AvalancheNodeUnhealthy');
    expect(page).toContain('hook');
    expect(page).not.toContain('secret-path-123');
    const metrics = await scrape(stack.url);
    expect(valueOf(metrics, 'avaxmon_alerts', { rule: 'AvalancheNodeUnhealthy', state: 'firing' })).toBe(1);
    expect(valueOf(metrics, 'avaxmon_notifications_total', { receiver: 'hook', outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    stack.sim.apply({ recover_check: 'network' });
    await time.advanceUntil(() => unhealthy().length === 2, 2000);
    await time.advance(1500);
    expect(unhealthy()).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
  });

  it('a failing collector fires AvaxmonCollectorFailing at the run that completes its intervals, not at the next sweep', async () => {
    const { stack, hook } = await alertStack('AvaxmonCollectorFailing: { for: 0s }', { manualTime: true });
    const time = stack.time!;
    await time.eventually(
      () => scrape(stack.url),
      (samples) => valueOf(samples, 'avaxmon_collector_success', { collector: 'peers' }) === 1,
    );
    // Past the first sweeps, so the next one is up to 10 s away whatever the phase.
    await time.advance(10_000);
    stack.sim.apply({ fault: { match: 'info.peers', kind: 'http_500' } });
    const failedAtMs = time.clock.now();
    await time.advanceUntil(() => notificationsOf(hook.requests, 'AvaxmonCollectorFailing').includes('firing:AvaxmonCollectorFailing'));
    // Three 1 s intervals without success, then the run that sees it (the sweep comes every 10 s).
    expect(time.clock.now() - failedAtMs).toBeLessThanOrEqual(4_500);
  });

  it('a flapping check that flips back within `for` never notifies', async () => {
    const rules = 'AvalancheNodeUnhealthy: { for: 3s }\nAvalancheHealthCheckFailing: { for: 3s }\nAvalancheSubnetUnhealthy: { for: 3s }';
    const { stack, hook } = await alertStack(rules, { manualTime: true });
    // Each failure is seen by exactly one run (one per 1 s interval) and is gone 1.5 s before the next.
    for (let flip = 0; flip < 3; flip++) {
      stack.sim.apply({ fail_check: 'database' });
      await stack.time!.advance(1000);
      expect(stack.daemon.alerting!.activeAlerts().map((alert) => alert.state)).toContain('pending');
      stack.sim.apply({ recover_check: 'database' });
      await stack.time!.advance(1500);
    }
    await stack.time!.advance(1000);
    expect(stack.logs.some((line) => line.includes('Alert firing'))).toBe(false);
    expect(hook.requests).toHaveLength(0);
  });

  it('uptime falls below the requirement and peers drop: both alert, then resolve', async () => {
    const rules =
      'AvalancheUptimeLow: { for: 1s }\nAvalanchePeersLow: { for: 1s, threshold: 20 }\nAvalancheUptimeDropping: { enabled: false }';
    const { stack, hook } = await alertStack(rules, { manualTime: true });
    stack.sim.apply({ set_peers: 5, set_uptime: 70 });
    await stack.time!.advanceUntil(
      () =>
        notificationsOf(hook.requests, 'AvalancheUptimeLow').length >= 1 &&
        notificationsOf(hook.requests, 'AvalanchePeersLow').length === 1,
    );
    const uptime = hook.requests
      .map((request) => request.json as { alerts: Array<{ labels: Record<string, string>; annotations: Record<string, string> }> })
      .find((body) => body.alerts[0].labels.alertname === 'AvalancheUptimeLow')!;
    // The peers send "70" (truncated): read as the middle of [70, 71).
    expect(uptime.alerts[0].annotations.summary).toContain('70.50%');
    expect(uptime.alerts[0].labels.severity).toBe('warning');
    stack.sim.apply({ set_peers: 60, set_uptime: 99.9 });
    await stack.time!.advanceUntil(() => notificationsOf(hook.requests, 'AvalanchePeersLow').length === 2);
    await stack.time!.advanceUntil(
      () =>
        notificationsOf(hook.requests, 'AvalancheUptimeLow').filter((entry) => entry.startsWith('resolved')).length ===
        notificationsOf(hook.requests, 'AvalancheUptimeLow').filter((entry) => entry.startsWith('firing')).length,
    );
  });

  it('sidecar mode: the peers see the node at 30% while its own entry says 100%, and the reward alerts fire', async () => {
    const { stack, hook } = await alertStack(
      'AvalancheRewardAtRisk: { for: 1s }\nAvalancheUptimeLow: { for: 1s }\nAvalancheRewardingStakeLow: { for: 1s }\nAvalancheUptimeDropping: { enabled: false }',
      { manualTime: true },
    );
    stack.sim.apply({ set_uptime: 30 });
    await stack.time!.advanceUntil(
      () =>
        notificationsOf(hook.requests, 'AvalancheRewardAtRisk', { severity: 'critical', view: 'network' }).length >= 1 &&
        notificationsOf(hook.requests, 'AvalancheUptimeLow', { view: 'network' }).length >= 1 &&
        notificationsOf(hook.requests, 'AvalancheRewardingStakeLow', { severity: 'warning' }).length >= 1,
    );
    const samples = await scrape(stack.url);
    expect(valueOf(samples, 'avaxmon_validator_uptime_ratio', { view: 'self' })).toBeCloseTo(0.999812, 6);
    // Nothing fires on the node's view of itself.
    expect(notificationsOf(hook.requests, 'AvalancheUptimeLow', { view: 'self' })).toEqual([]);
  });

  it('a stalled chain fires and resolves when it resumes (chain_progress collector)', async () => {
    const { stack, hook } = await alertStack('AvalancheChainStalled: { for: 1s, threshold: 2s }');
    // The simulated X-Chain is slow by nature; the assertions follow the C-Chain only.
    const chainC = () => notificationsOf(hook.requests, 'AvalancheChainStalled', { chain: 'C', target: 'node-a', severity: 'critical' });
    // A fleet-wide rule is evaluated every 5 s (evaluation-schedule.ts): the 2 s stall is seen at the first
    // fleet evaluation after it and fires at the first after its 1 s `for`, up to about 13 s later.
    const fleetRuleMs = 15_000;
    stack.sim.apply({ chain_stall: 'C' });
    await until(() => chainC().length === 1, fleetRuleMs);
    stack.sim.apply({ chain_resume: 'C' });
    await until(() => chainC().length === 2, fleetRuleMs);
    expect(chainC()).toEqual(['firing:AvalancheChainStalled', 'resolved:AvalancheChainStalled']);
  }, 40_000);

  it('a receiver down through a whole incident learns of it as resolved once it recovers, never as a stale firing', async () => {
    const { stack, hook } = await alertStack(
      'AvalancheNodeUnhealthy: { for: 0s }\nAvalancheHealthCheckFailing: { enabled: false }\nAvalancheSubnetUnhealthy: { enabled: false }',
    );
    let refused = 0;
    hook.respond = () => {
      refused += 1;
      return { status: 503, headers: { 'retry-after': '1' } };
    };
    stack.sim.apply({ fail_check: 'router' });
    await until(() => refused >= 1);
    const queued = await eventually(
      () => scrape(stack.url),
      (samples) =>
        (valueOf(samples, 'avaxmon_notification_queue_depth') ?? 0) >= 1 &&
        (valueOf(samples, 'avaxmon_notifications_total', { receiver: 'hook', outcome: 'retried' }) ?? 0) >= 1,
    );
    expect(valueOf(queued, 'avaxmon_notification_oldest_queued_age_seconds')).toBeGreaterThan(0);
    stack.sim.apply({ recover_check: 'router' });
    // Resolved while the receiver still refuses: the firing queued for it is stale now.
    await until(() => !stack.daemon.alerting!.activeAlerts().some((alert) => alert.rule === 'AvalancheNodeUnhealthy'));
    const refusedBeforeRecovery = refused;
    await until(() => refused > refusedBeforeRecovery);
    expect(hook.requests).toHaveLength(0);
    hook.respond = () => ({ status: 200 });
    await until(() => hook.requests.length === 1);
    const drainedFirst = await eventually(
      () => scrape(stack.url),
      (samples) => valueOf(samples, 'avaxmon_notification_queue_depth') === 0,
    );
    expect(valueOf(drainedFirst, 'avaxmon_notification_queue_depth')).toBe(0);
    expect(notificationsOf(hook.requests, 'AvalancheNodeUnhealthy')).toEqual(['resolved:AvalancheNodeUnhealthy']);
    const drained = await eventually(
      () => scrape(stack.url),
      (samples) => valueOf(samples, 'avaxmon_notification_queue_depth') === 0,
    );
    expect(valueOf(drained, 'avaxmon_notification_oldest_queued_age_seconds')).toBe(0);
  });
});
