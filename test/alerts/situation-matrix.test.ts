import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleRegistry } from '../../src/alerts/evaluation/rules/index.js';
import { parseDuration } from '../../src/config/duration.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { freePort } from '../helpers/ports.js';
import { eventually, scrape, valueOf, type ParsedSample } from '../helpers/stack.js';
import { startRecorder, type Recorder } from './recorder.js';
import { situations, situationsTable, type ExpectedAlert, type Situation } from './situations.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const DOC = new URL('../../docs/alerting.md', import.meta.url);
/**
 * Every rule's `for:` in this matrix, and the collection interval: 21 targets of about ten
 * collectors each stay light enough for a loaded 2-core machine, and every transient of a situation
 * (at most 3.5 s as the daemon sees it) is shorter than `for:`.
 */
const FOR = '5s';
const INTERVAL = '2s';

interface FiringAlert {
  readonly labels: Record<string, string>;
  readonly status: { readonly inhibitedBy: readonly string[]; readonly silencedBy: readonly string[] };
}

/**
 * Every rule on with its defaults, `for:` shortened to the same `FOR` (a rule that fires at once
 * keeps doing so), so the order in which rules fire is the defaults' order: a failing collector
 * waits its 3 intervals and then `FOR`, after the alert that explains it; the C-Chain stalls after
 * `FOR` instead of 5 m.
 */
function rulesYaml(): string {
  return [...ruleRegistry.values()]
    .map((rule) => {
      const extra = rule.name === 'AvalancheChainStalled' ? `, threshold: ${FOR}, behind_threshold: ${FOR}` : '';
      return `    ${rule.name}: { for: ${parseDuration(rule.defaultFor) === 0 ? '0s' : FOR}${extra} }`;
    })
    .join('\n');
}

function configYaml(sims: ReadonlyMap<string, Simulator>, hook: Recorder, stateDir: string): string {
  const targets = situations.map((situation) => {
    const extra = situation.targetYaml ? `, ${situation.targetYaml.replace(/^subnets: /, 'subnets: ')}` : '';
    return `  - { name: ${situation.id}, url: "${sims.get(situation.id)!.url}"${extra} }`;
  });
  const metricsApi = situations.find((situation) => situation.metricsApi);
  return `global: { interval: ${INTERVAL}, timeout: ${INTERVAL} }
targets:
${targets.join('\n')}
${metricsApi ? `metrics_api: { url: "${sims.get(metricsApi.id)!.url}", interval: ${INTERVAL}, timeout: ${INTERVAL}, chains: [43114], metrics: [txCount], max_retry_wait: 0s }\n` : ''}alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  group_interval: 0s
  group_by: ['...']
  retry: { initial_backoff: 200ms, max_backoff: 500ms }
  rules:
${rulesYaml()}
  receivers:
    - { name: hook, type: webhook, url: "${hook.url}/hook" }
`;
}

const key = (alert: { alertname: string; severity: string; labels?: Record<string, string> }) =>
  [
    alert.alertname,
    alert.severity,
    ...Object.entries(alert.labels ?? {})
      .sort()
      .map(([name, value]) => `${name}=${value}`),
  ].join(' ');

/** The firing alert as the situation's expectations name it: the name, severity and the labels they give. */
function matches(expected: ExpectedAlert, labels: Record<string, string>): boolean {
  return (
    labels.alertname === expected.alertname &&
    labels.severity === expected.severity &&
    Object.entries(expected.labels ?? {}).every(([name, value]) => labels[name] === value)
  );
}

/** Whether every target with a successful collector has had one succeed again since `seconds`. */
function collectedSince(samples: readonly ParsedSample[], seconds: number): boolean {
  const lastByTarget = new Map<string, number>();
  for (const sample of samples)
    if (sample.name === 'avaxmon_collector_last_success_timestamp_seconds' && sample.value > 0)
      lastByTarget.set(sample.labels.target, Math.max(lastByTarget.get(sample.labels.target) ?? 0, sample.value));
  return [...lastByTarget.values()].every((last) => last > seconds);
}

function targetsOf(situation: Situation): string[] {
  return situation.otherTarget ? [situation.id, situation.otherTarget] : [situation.id];
}

/** What one situation shows now: its firing alerts, as expected-alert keys, notified and muted. */
function observed(situation: Situation, alerts: readonly FiringAlert[]) {
  const mine = alerts.filter((alert) => targetsOf(situation).includes(alert.labels.target));
  const describe = (alert: FiringAlert) => {
    const expected = [...situation.fires, ...(situation.muted ?? [])].find((candidate) => matches(candidate, alert.labels));
    return expected
      ? key(expected)
      : `UNEXPECTED ${key({ alertname: alert.labels.alertname, severity: alert.labels.severity, labels: alert.labels })}`;
  };
  return {
    fires: mine
      .filter((alert) => alert.status.inhibitedBy.length === 0)
      .map(describe)
      .sort(),
    muted: mine
      .filter((alert) => alert.status.inhibitedBy.length > 0)
      .map(describe)
      .sort(),
  };
}

const wanted = (situation: Situation) => ({ fires: situation.fires.map(key).sort(), muted: (situation.muted ?? []).map(key).sort() });

describe('what pages when: the situation matrix through the daemon process', () => {
  const sims = new Map<string, Simulator>();
  let hook: Recorder;
  let child: ChildProcess;
  let url: string;
  const timers: NodeJS.Timeout[] = [];
  let transientsLeft = 0;

  beforeAll(async () => {
    hook = await startRecorder();
    for (const situation of situations) {
      const sim = await startSimulator({ validators: 100, validator: situation.node?.validator });
      for (const step of situation.setup) sim.apply(step);
      sims.set(situation.id, sim);
    }
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-situations-'));
    const configFile = join(dir, 'config.yaml');
    writeFileSync(configFile, configYaml(sims, hook, join(dir, 'state')));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn('node', [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'], {
      stdio: 'ignore',
    });
    // The transients start once the daemon has seen each of their nodes whole.
    const transient = situations.filter((situation) => situation.later);
    await eventually(
      () => scrape(url).catch((): ParsedSample[] => []),
      (samples) =>
        transient.every(
          (situation) => valueOf(samples, 'avaxmon_validator_uptime_ratio', { target: situation.id, view: 'network' }) !== undefined,
        ),
      60_000,
    );
    for (const situation of transient) {
      for (const { afterMs, apply } of situation.later!) {
        transientsLeft += 1;
        timers.push(
          setTimeout(() => {
            sims.get(situation.id)!.apply(apply);
            transientsLeft -= 1;
          }, afterMs),
        );
      }
    }
  }, 180_000);

  afterAll(async () => {
    for (const timer of timers) clearTimeout(timer);
    child?.kill('SIGKILL');
    await Promise.all([...sims.values()].map((sim) => sim.close()));
    await hook?.close();
  });

  it(`runs ${situations.length} situations, each raising exactly its alerts and nothing else`, async () => {
    expect(situations.length).toBeGreaterThanOrEqual(20);
    const alertsNow = async () => (await (await fetch(`${url}/api/v2/alerts`)).json()) as FiringAlert[];
    const everyMatches = (alerts: readonly FiringAlert[]) =>
      situations.every((situation) => JSON.stringify(observed(situation, alerts)) === JSON.stringify(wanted(situation)));
    let alerts: FiringAlert[] = [];
    // Settle: every transient applied, every expected alert firing (`for:` after the first runs), nothing else.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      try {
        alerts = await alertsNow();
        if (transientsLeft === 0 && everyMatches(alerts)) break;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // And it stays so: nothing fires late. Every target is collected and evaluated until an alert
    // pending now would have fired (`for:` and one more interval).
    const quietUntilSeconds = (Date.now() + parseDuration(FOR)! + parseDuration(INTERVAL)!) / 1000;
    await eventually(
      () => scrape(url),
      (samples) => collectedSince(samples, quietUntilSeconds),
      60_000,
    );
    alerts = await alertsNow();
    const bySituation = (view: (situation: Situation) => unknown) =>
      Object.fromEntries(situations.map((situation) => [situation.id, view(situation)]));
    expect(bySituation((situation) => observed(situation, alerts))).toEqual(bySituation(wanted));
    // Nothing else was ever notified, not even for a moment (the restart's transient).
    const notified = hook.requests.flatMap((request) => (request.json as { alerts: Array<{ labels: Record<string, string> }> }).alerts);
    for (const situation of situations) {
      const mine = notified.filter((alert) => targetsOf(situation).includes(alert.labels.target));
      const unexpected = mine
        .filter((alert) => ![...situation.fires, ...(situation.before ?? [])].some((expected) => matches(expected, alert.labels)))
        .map((alert) => key({ alertname: alert.labels.alertname, severity: alert.labels.severity, labels: {} }));
      expect(unexpected, situation.id).toEqual([]);
    }
  }, 180_000);

  it('exports the numbers the alerts stand on (the deciding view and the budget)', async () => {
    const samples: ParsedSample[] = await eventually(
      () => scrape(url),
      (found) => valueOf(found, 'avaxmon_validator_downtime_budget_seconds', { target: 'majority-view' }) !== undefined,
      60_000, // a run that timed out on a loaded machine drops the series until the next one
    );
    const budget = (target: string) => valueOf(samples, 'avaxmon_validator_downtime_budget_seconds', { target, view: 'network' })!;
    const network = (target: string) => valueOf(samples, 'avaxmon_validator_uptime_ratio', { target, view: 'network' })!;
    const DAY = 86_400;
    // Case 5: "99" read as 99.5%; 0.1·14 d − 0.005·6.5 d = 118,152 s (32.8 h). info.uptime's average
    // counts the 15% disconnected as 0%: about 84%.
    expect(network('partial-connectivity')).toBeCloseTo(0.995, 9);
    expect(budget('partial-connectivity') / 3600).toBeCloseTo(32.8, 0);
    expect(valueOf(samples, 'avaxmon_node_uptime_weighted_average_ratio', { target: 'partial-connectivity' })!).toBeLessThan(0.86);
    // Case 6: 80.5% is what 75% of the stake sees: 0.1·90 d − 0.195·30 d = 3.15 d; the average (~88.6%) would say 5.6 d.
    expect(network('majority-view')).toBeCloseTo(0.805, 9);
    expect(budget('majority-view') / DAY).toBeCloseTo(3.15, 1);
    // Case 7: 87.5% two days into a year: 36.5 d − 0.125·2 d = 36.25 d left.
    expect(network('running-ratio')).toBeCloseTo(0.875, 9);
    expect(budget('running-ratio') / DAY).toBeCloseTo(36.25, 1);
    // 0.1·60 d − 0.105·55 d = 0.225 d: 5.4 h.
    expect(budget('budget-nearly-spent') / 3600).toBeCloseTo(5.4, 0);
    // The restart was seen (connections reset), and the view is whole again: it rode out on `for:`.
    const resets = samples.filter(
      (sample) =>
        sample.name === 'avaxmon_rpc_requests_total' && sample.labels.target === 'restarting' && sample.labels.outcome === 'reset',
    );
    expect(resets.reduce((sum, sample) => sum + sample.value, 0)).toBeGreaterThan(0);
    expect(network('restarting')).toBeCloseTo(0.995, 9);
    // The validation that ended: said so once, with its end and reward, and the node is an API node now.
    expect(valueOf(samples, 'avaxmon_node_role', { target: 'validation-ended', role: 'api' })).toBe(1);
    const notified = hook.requests.flatMap(
      (request) =>
        (request.json as { alerts: Array<{ status: string; labels: Record<string, string>; annotations: Record<string, string> }> }).alerts,
    );
    const ended = notified.filter((alert) => alert.labels.target === 'validation-ended' && alert.labels.severity === 'info');
    expect(ended.filter((alert) => alert.status === 'firing')).toHaveLength(1);
    expect(ended[0].annotations).toMatchObject({ reward_earned: 'yes' });
    expect(ended[0].annotations.summary).toMatch(/^Validation of NodeID-\S+ ended at \d{4}-/);
  });

  it('keeps docs/alerting.md\'s "what pages when" table true to these situations', () => {
    expect(readFileSync(DOC, 'utf8')).toContain(situationsTable());
  });
});
