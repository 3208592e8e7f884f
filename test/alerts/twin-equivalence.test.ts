import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AlertEngine } from '../../src/alerts/evaluation/engine.js';
import { ruleRegistry } from '../../src/alerts/evaluation/rules/index.js';
import { parseConfig } from '../../src/config/load.js';
import { silentLog } from './harness.js';
import { noDispatch } from './no-dispatch.js';
import { type AlertCase, readAlertCases, samplesAt } from './promtool-replay.js';

/**
 * A built-in rule and its Prometheus twin must mean the same thing. The twins' promtool unit tests
 * (alerts/tests/avaxmon-*.test.yaml, run by test/artifacts/prometheus-rules.test.ts) are replayed
 * here through the built-in engine, evaluated every minute as Prometheus would: every case must give
 * the same alerts, with the same labels and severities, from both. A new case for either side is a
 * case for both.
 */
const TESTS_DIR = 'alerts/tests';
const SCRAPE_LABELS = new Set(['job', 'instance']);
/** The twins select avaxmon's series by job (alerts/settings.yaml); the daemon only ever sees its own. */
const AVAXMON_JOB = /^avaxmon.*$/;
const SEVERITY_RANK = ['info', 'warning', 'critical'];

const cases = readdirSync(TESTS_DIR)
  .filter((file) => file.startsWith('avaxmon-') && file.endsWith('.test.yaml'))
  .flatMap((file) => readAlertCases(join(TESTS_DIR, file)))
  .filter((alertCase) => ruleRegistry.has(alertCase.alertname))
  .map((alertCase) => ({ ...alertCase, series: alertCase.series.filter((series) => AVAXMON_JOB.test(series.labels.job ?? 'avaxmon')) }));

/** The alerts firing at the case's eval_time, by their labels (without Prometheus' scrape labels). */
function builtInFiring(alertCase: AlertCase): string[] {
  const config = parseConfig('alerts: {}').alerts!;
  const engine = new AlertEngine(config, { log: silentLog, consumer: noDispatch, save: () => {} });
  for (let atMs = 0; atMs <= alertCase.evalTimeMs; atMs += alertCase.intervalMs) {
    engine.evaluate(samplesAt(alertCase.series, alertCase.intervalMs, atMs), atMs);
  }
  return engine
    .active()
    .filter((alert) => alert.rule === alertCase.alertname && alert.state === 'firing')
    .map((alert) => identity(alert.labels))
    .sort();
}

/**
 * A tiered twin fires one alert per severity on purpose (warning and critical overlap, and an
 * Alertmanager inhibit rule keeps the highest); the built-in engine sends that highest one alone.
 */
function expectedFiring(alertCase: AlertCase): string[] {
  const highest = new Map<string, string>();
  for (const { labels } of alertCase.expected) {
    const { severity = '', ...rest } = labels;
    const key = identity({ alertname: alertCase.alertname, ...rest });
    const seen = highest.get(key);
    if (seen === undefined || SEVERITY_RANK.indexOf(severity) > SEVERITY_RANK.indexOf(seen)) highest.set(key, severity);
  }
  return [...highest].map(([key, severity]) => identity({ ...JSON.parse(key), severity })).sort();
}

function identity(labels: Readonly<Record<string, string>>): string {
  const kept = Object.entries(labels).filter(([name]) => !SCRAPE_LABELS.has(name));
  return JSON.stringify(Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b))));
}

describe('built-in rules against the cases of their Prometheus twins', () => {
  it('replays a case for every built-in rule', () => {
    const covered = new Set(cases.map((alertCase) => alertCase.alertname));
    expect([...ruleRegistry.keys()].filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each(
    cases.map((alertCase) => [`${alertCase.alertname} at ${alertCase.evalTimeMs / 60_000}m (${alertCase.test})`, alertCase] as const),
  )('%s', (_, alertCase) => {
    expect(builtInFiring(alertCase)).toEqual(expectedFiring(alertCase));
  });
});
