import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EvaluationSchedule } from '../../src/alerts/evaluation-schedule.js';
import { ruleRegistry } from '../../src/alerts/evaluation/rules/index.js';
import { parseConfig } from '../../src/config/load.js';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { silentLog } from './harness.js';

const TARGETS = Array.from({ length: 8 }, (_, index) => `node-${index}`);
/** Targets whose collectors succeed and find nothing to alert on: the sweep leaves their rules out. */
const CALM = new Set(['node-6', 'node-7']);
/** A target whose samples never change, with an upgrade that comes within AvalancheUpgradeScheduled's week two minutes in. */
const TIMED = 'node-5';
const MOVING = TARGETS.filter((target) => target !== TIMED);
const WEEK_S = 7 * 86_400;
const SLICES_PER_TARGET = 5;
const STEPS = 900;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A small, seeded generator: the same stream for both schedules, and for every run of the test. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Every family a per-target rule reads, with the identity labels of the rule's first source. */
const FAMILIES: ReadonlyArray<{ name: string; labels: readonly string[] }> = (() => {
  const families = new Map<string, readonly string[]>([
    ['avaxmon_collector_success', ['target', 'collector']],
    ['avaxmon_collector_facts_age_seconds', ['target', 'collector']],
  ]);
  for (const rule of ruleRegistry.values()) {
    if (rule.fleetReads) continue;
    for (const source of rule.sources) if (!families.has(source.metric)) families.set(source.metric, source.labels);
    for (const family of rule.alsoReads ?? []) if (!families.has(family)) families.set(family, rule.sources[0]?.labels ?? ['target']);
  }
  return [...families].map(([name, labels]) => ({ name, labels }));
})();

/**
 * Values rules compare with: ratios either side of their thresholds, counts, booleans, and times
 * around now (ages of seconds to days, deadlines minutes to weeks away) that cross thresholds as the
 * stream's time runs on with the samples unchanged.
 */
function valueOf(next: () => number, nowSeconds: number): number {
  const palette = [0, 1, 1, 1, 0.2, 0.5, 0.79, 0.8, 0.81, 0.9, 0.95, 0.99, 2, 5, 10, 50, 1_000, 2e6];
  // Some just past a threshold of a day or a week, to cross it while the stream runs.
  const offsets = [
    -86_400, -3_600, -600, -300, -200, -90, -45, 30, 90, 200, 600, 3_600, 86_000, 86_500, 86_700, 604_700, 604_900, 605_200, 2e6,
  ];
  if (next() < 0.3) return Math.round(nowSeconds + offsets[Math.floor(next() * offsets.length)]);
  return palette[Math.floor(next() * palette.length)];
}

/** One slice of a target: a fifth of the families, one or two series each. */
function sliceSamples(next: () => number, target: string, slice: number, nowSeconds: number): Sample[] {
  if (target === TIMED) {
    const upgrade = { target, upgrade: 'Fortuna' };
    return slice > 0
      ? []
      : [
          { name: 'avaxmon_target_up', labels: { target }, value: 1 },
          { name: 'avaxmon_network_upgrade_activation_timestamp_seconds', labels: upgrade, value: Math.round(nowSeconds) + WEEK_S + 120 },
          { name: 'avaxmon_network_upgrade_scheduled', labels: upgrade, value: 1 },
        ];
  }
  if (CALM.has(target)) {
    const labels = { target, collector: `c${slice}` };
    return [
      { name: 'avaxmon_target_up', labels: { target }, value: 1 },
      { name: 'avaxmon_collector_success', labels, value: 1 },
    ];
  }
  const samples: Sample[] = slice === 0 ? [{ name: 'avaxmon_target_up', labels: { target }, value: next() < 0.9 ? 1 : 0 }] : [];
  FAMILIES.forEach(({ name, labels }, index) => {
    if (index % SLICES_PER_TARGET !== slice || next() < 0.25) return;
    const series = next() < 0.5 ? 1 : 2;
    for (let each = 0; each < series; each++) {
      const sampleLabels = Object.fromEntries(labels.map((label) => [label, label === 'target' ? target : `${label}-${each}`]));
      samples.push({ name, labels: sampleLabels, value: valueOf(next, nowSeconds) });
    }
  });
  return samples;
}

/** The daemon's two alert schedules over their own snapshots, fed the same stream. */
async function schedule(clock: ManualClock, sweep: 'incremental' | 'full') {
  const snapshot = new MetricsSnapshot(allMetrics, { clock });
  let samplesRead = 0;
  const samplesOf = snapshot.samplesOf.bind(snapshot);
  snapshot.samplesOf = (target) => {
    samplesRead += 1;
    return samplesOf(target);
  };
  const alerts = new EvaluationSchedule(silentLog, snapshot, {
    clock,
    sweep,
    collectors: (target, collector) => ({ intervalMs: 15_000, lastError: `${target}/${collector} failed` }),
  });
  stops.push(() => clock.runUntil(alerts.stop()));
  // A receiver that never answers: dispatch decides and records what it sends, and no delivery
  // (whose timing is the network's) feeds back into the alerts compared.
  const stateDir = mkdtempSync(join(tmpdir(), `avaxmon-incremental-${sweep}-`));
  const configure = (disabled?: string) =>
    alerts.configure(
      parseConfig(`alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  group_interval: 0s
  receivers: [{ name: hook, type: webhook, url: "http://127.0.0.1:9/hook" }]
  rules: { AvaxmonNotificationsFailing: { enabled: false }${disabled ? `, ${disabled}: { enabled: false }` : ''} }
`).alerts,
      TARGETS,
    );
  await configure();
  return { snapshot, alerts, configure, samplesRead: () => samplesRead };
}

/**
 * The sweep leaves out what cannot have changed: a rule that found nothing for a target from its
 * samples alone, with no open alert there, until the families it read change. This runs one stream
 * (slices replaced, emptied, targets down, values and timestamps that cross thresholds as time runs)
 * through the full sweep and the incremental one, and compares every alert after every second.
 */
describe('the incremental sweep', () => {
  it.each([47, 2_000, 31_337])(
    'opens, fires, keeps and resolves every alert exactly as the full sweep does, time-driven ones included (seed %i)',
    async (seed) => {
      const clock = new ManualClock();
      const full = await schedule(clock, 'full');
      const incremental = await schedule(clock, 'incremental');
      const next = random(seed);
      const set = (target: string, slice: number, samples: Sample[]) => {
        for (const { snapshot, alerts } of [full, incremental]) {
          const key = `${target}/c${slice}`;
          const before = new Set(snapshot.familiesOf(key));
          const version = snapshot.sliceVersion(key);
          snapshot.setSlice(key, samples);
          // As the daemon does after a run: the rules reading the families it moved.
          if (snapshot.sliceVersion(key) !== version) alerts.afterRun(target, new Set([...before, ...snapshot.familiesOf(key)]));
        }
      };
      for (const target of TARGETS)
        for (let slice = 0; slice < SLICES_PER_TARGET; slice++) set(target, slice, sliceSamples(next, target, slice, clock.now() / 1000));
      full.alerts.startEvaluating();
      incremental.alerts.startEvaluating();

      const alertsOf = (plane: typeof full) =>
        JSON.stringify([...plane.alerts.current!.activeAlerts()].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1)));
      const states = new Map<string, string>();
      let timeDriven = 0;
      for (let step = 0; step < STEPS; step++) {
        let changed = false;
        // Now and then a run moves a slice: new values, or nothing (a collector failing).
        if (next() < 0.15) {
          const target = MOVING[Math.floor(next() * MOVING.length)];
          const slice = Math.floor(next() * SLICES_PER_TARGET);
          set(target, slice, next() < 0.1 ? [] : sliceSamples(next, target, slice, clock.now() / 1000));
          changed = true;
        }
        // Halfway, a reload disables the rule with the most open alerts: they resolve at the next sweep.
        if (step === STEPS / 2) {
          const open = new Map<string, number>();
          for (const alert of full.alerts.current!.activeAlerts()) open.set(alert.rule, (open.get(alert.rule) ?? 0) + 1);
          const [disabled] = [...open].filter(([rule]) => rule !== 'AvalancheUpgradeScheduled').sort((a, b) => b[1] - a[1])[0];
          await full.configure(disabled);
          await incremental.configure(disabled);
          changed = true;
        }
        await clock.advance(1_000);
        expect(alertsOf(incremental), `at step ${step}`).toBe(alertsOf(full));
        for (const alert of full.alerts.current!.activeAlerts()) {
          if (states.get(alert.fingerprint) !== alert.state && !changed) timeDriven += 1;
          states.set(alert.fingerprint, alert.state);
        }
      }
      expect(states.size).toBeGreaterThan(20);
      // The upgrade came within the week with no sample of its target moving: the sweep saw it by time alone.
      expect(full.alerts.current!.activeAlerts().some((alert) => alert.labels.target === TIMED)).toBe(true);
      // Alerts opened or fired while no sample moved: by time alone.
      expect(timeDriven).toBeGreaterThan(10);
      // And the incremental sweep left the calm targets' samples unread.
      expect(incremental.samplesRead()).toBeLessThan(full.samplesRead());
    },
  );
});
