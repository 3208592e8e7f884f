import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/config/duration.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { freePort } from '../helpers/ports.js';
import { eventually, find, scrape, valueOf, type ParsedSample } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';
import { until } from '../helpers/until.js';
import { startRecorder, type Recorder } from './recorder.js';
import { situations, situationsTable, type ExpectedAlert, type Situation } from './situations.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const DOC = new URL('../../docs/alerting.md', import.meta.url);
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
/**
 * The daemon runs every rule with its default, real `for` (AvalancheNodeVersionBehind's hour
 * included) on a clock, wall and monotonic, that libfaketime runs this much faster; the simulated
 * nodes share that time, so both agree on when a bootstrap began or a validation ends.
 */
const SPEED = 20;
/**
 * The collection interval and each call's timeout, in the daemon's time: 3 s of ours, so the
 * calls of 30 targets to simulators in this busy test process fit on a loaded machine, and one
 * late or failed run stays short of every rule's threshold (a chain 2 minutes behind).
 */
const INTERVAL = '1m';
const INTERVAL_MS = parseDuration(INTERVAL)!;
/** A situation has settled when it has shown exactly its alerts for three runs of the daemon's time. */
const STEADY_MS = 3 * INTERVAL_MS;
/** Real time for the whole matrix: its slowest rule (an hour's `for`) is three minutes of ours. */
const SETTLE_CAP_MS = 420_000;

/**
 * The simulated nodes' clock: real time until the daemon starts, then the daemon's, SPEED times
 * faster from that moment (libfaketime's `+0 xSPEED` starts the daemon's clock at its start).
 */
function nodeClock() {
  let sped: { realMs: number; atMs: number } | undefined;
  return {
    now: () => (sped ? sped.atMs + (Date.now() - sped.realMs) * SPEED : Date.now()),
    speedUp() {
      sped = { realMs: Date.now(), atMs: Date.now() };
    },
  };
}

interface FiringAlert {
  readonly labels: Record<string, string>;
  readonly status: { readonly inhibitedBy: readonly string[]; readonly silencedBy: readonly string[] };
}

function configYaml(sims: ReadonlyMap<string, Simulator>, hook: Recorder, stateDir: string): string {
  const targets = situations.map((situation) => {
    const extra = situation.targetYaml ? `, ${situation.targetYaml}` : '';
    return `  - { name: ${situation.id}, url: "${sims.get(situation.id)!.url}"${extra} }`;
  });
  const metricsApi = situations.find((situation) => situation.metricsApi);
  // No rule settings: every rule with its defaults.
  return `global: { interval: ${INTERVAL}, timeout: ${INTERVAL} }
targets:
${targets.join('\n')}
${metricsApi ? `metrics_api: { url: "${sims.get(metricsApi.id)!.url}", interval: ${INTERVAL}, timeout: ${INTERVAL}, chains: [43114], metrics: [txCount], max_retry_wait: 0s }\n` : ''}alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  group_interval: 0s
  group_by: ['...']
  retry: { initial_backoff: 200ms, max_backoff: 500ms }
  receivers:
    # 6 s of ours: the recorder in this busy process answers late on a loaded machine, and a
    # delivery retried after a timeout would be notified twice.
    - { name: hook, type: webhook, url: "${hook.url}/hook", timeout: 2m }
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

describe.runIf(requireTool(LIBFAKETIME, 'faketime'))(
  'what pages when: the situation matrix through the daemon process, every rule with its real `for`',
  () => {
    const sims = new Map<string, Simulator>();
    const clock = nodeClock();
    let hook: Recorder;
    let child: ChildProcess;
    let url: string;
    const timers: NodeJS.Timeout[] = [];
    /** Transient steps not yet applied (or not yet lifted), by situation. */
    const transientsLeft = new Map<string, number>();
    let stopped = false;

    /** Applies a transient step in the node's time; a reset is lifted once the daemon has had one. */
    async function applyLater(situation: Situation, step: NonNullable<Situation['later']>[number]): Promise<void> {
      const sim = sims.get(situation.id)!;
      sim.apply(step.apply);
      if (step.clearOnceSeen === 'reset') {
        await eventually(
          () => scrape(url).catch((): ParsedSample[] => []),
          (samples) =>
            stopped ||
            find(samples, 'avaxmon_rpc_requests_total', { target: situation.id, outcome: 'reset' }).some((sample) => sample.value > 0),
          SETTLE_CAP_MS,
        );
        sim.apply({ clear_faults: true });
      }
      transientsLeft.set(situation.id, transientsLeft.get(situation.id)! - 1);
    }

    beforeAll(async () => {
      hook = await startRecorder();
      for (const situation of situations) {
        const sim = await startSimulator({ validators: 100, validator: situation.node?.validator, now: clock.now });
        for (const step of situation.setup) sim.apply(step);
        sims.set(situation.id, sim);
      }
      const dir = mkdtempSync(join(tmpdir(), 'avaxmon-situations-'));
      const configFile = join(dir, 'config.yaml');
      writeFileSync(configFile, configYaml(sims, hook, join(dir, 'state')));
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      clock.speedUp();
      child = spawn(
        process.execPath,
        [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'],
        {
          stdio: 'ignore',
          env: { ...process.env, LD_PRELOAD: LIBFAKETIME, FAKETIME: `+0 x${SPEED}` },
        },
      );
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
        for (const step of situation.later!) {
          transientsLeft.set(situation.id, (transientsLeft.get(situation.id) ?? 0) + 1);
          timers.push(setTimeout(() => void applyLater(situation, step), step.afterMs / SPEED));
        }
      }
    }, 180_000);

    afterAll(async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      child?.kill('SIGKILL');
      await Promise.all([...sims.values()].map((sim) => sim.close()));
      await hook?.close();
    });

    it(
      `runs ${situations.length} situations, each raising exactly its alerts and nothing else`,
      async () => {
        expect(situations.length).toBeGreaterThanOrEqual(20);
        const alertsNow = async () => (await (await fetch(`${url}/api/v2/alerts`)).json()) as FiringAlert[];
        const matchesNow = (situation: Situation, alerts: readonly FiringAlert[]) =>
          JSON.stringify(observed(situation, alerts)) === JSON.stringify(wanted(situation));
        // Each situation settles on its own: once its transients are applied, exactly its alerts for
        // STEADY_MS of the node's time (every `for:` of them run out, nothing else pending long
        // enough to fire within three runs). Then it may end (a bootstrap done within its grace).
        let endingsLeft = 0;
        let endedAt = 0;
        const settled = new Map<string, ReturnType<typeof observed>>();
        const matchingSince = new Map<string, number>();
        let last: FiringAlert[] = [];
        const deadline = Date.now() + SETTLE_CAP_MS;
        while (settled.size < situations.length && Date.now() < deadline) {
          try {
            last = await alertsNow();
          } catch {
            // not listening yet
          }
          for (const situation of situations) {
            if (settled.has(situation.id)) continue;
            if ((transientsLeft.get(situation.id) ?? 0) > 0 || !matchesNow(situation, last)) {
              matchingSince.delete(situation.id);
              continue;
            }
            const since = matchingSince.get(situation.id) ?? clock.now();
            matchingSince.set(situation.id, since);
            if (clock.now() - since < STEADY_MS) continue;
            settled.set(situation.id, observed(situation, last));
            for (const step of situation.ending ?? []) {
              endingsLeft += 1;
              timers.push(
                setTimeout(() => {
                  sims.get(situation.id)!.apply(step.apply);
                  endingsLeft -= 1;
                  endedAt = clock.now();
                }, step.afterMs / SPEED),
              );
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const bySituation = (view: (situation: Situation) => unknown) =>
          Object.fromEntries(situations.map((situation) => [situation.id, view(situation)]));
        expect(bySituation((situation) => settled.get(situation.id) ?? observed(situation, last))).toEqual(bySituation(wanted));
        // Every ending applied, and two runs since for what it would notify.
        await until(() => endingsLeft === 0 && clock.now() > endedAt + 2 * INTERVAL_MS, SETTLE_CAP_MS);
        // Nothing else was ever notified, not even for a moment (the restart's transient, a bootstrap's end).
        const notified = hook.requests.flatMap((request) => (request.json as { alerts: Array<{ labels: Record<string, string> }> }).alerts);
        for (const situation of situations) {
          const mine = notified.filter((alert) => targetsOf(situation).includes(alert.labels.target));
          const unexpected = mine
            .filter((alert) => ![...situation.fires, ...(situation.before ?? [])].some((expected) => matches(expected, alert.labels)))
            .map((alert) => key({ alertname: alert.labels.alertname, severity: alert.labels.severity, labels: {} }));
          expect(unexpected, situation.id).toEqual([]);
        }
      },
      SETTLE_CAP_MS + 60_000,
    );

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
          (request.json as { alerts: Array<{ status: string; labels: Record<string, string>; annotations: Record<string, string> }> })
            .alerts,
      );
      // A budget from stale facts is judged as the last good run's less the time since, and the page says so.
      const stalePage = notified.find(
        (alert) =>
          alert.status === 'firing' &&
          alert.labels.target === 'budget-day-validators-failing' &&
          alert.labels.alertname === 'AvalancheRewardAtRisk' &&
          alert.labels.severity === 'critical',
      );
      expect(stalePage?.annotations.stale_facts).toMatch(/^validators failing, facts from its last good run /);
      expect(stalePage?.annotations.description).toMatch(/from the validators collector's last good run \S+( \S+)? ago, less those/);
      const ended = notified.filter((alert) => alert.labels.target === 'validation-ended' && alert.labels.severity === 'info');
      expect(ended.filter((alert) => alert.status === 'firing')).toHaveLength(1);
      expect(ended[0].annotations).toMatchObject({ reward_earned: 'yes' });
      expect(ended[0].annotations.summary).toMatch(/^Validation of NodeID-\S+ ended at \d{4}-/);
    });

    it('keeps docs/alerting.md\'s "what pages when" table true to these situations', () => {
      expect(readFileSync(DOC, 'utf8')).toContain(situationsTable());
    });
  },
);
