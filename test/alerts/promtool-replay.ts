import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseDuration } from '../../src/config/duration.js';
import type { Labels, Sample } from '../../src/metrics/metric-desc.js';

/**
 * Reads `promtool test rules` files so the same cases can be replayed through avaxmon's built-in
 * engine: the twins' unit tests are the examples both implementations must agree on.
 */

export interface PromtoolSeries {
  readonly name: string;
  readonly labels: Labels;
  /** One entry per interval step; undefined where the notation has `_` (no sample at that step). */
  readonly values: ReadonlyArray<number | 'stale' | undefined>;
}

export interface ExpectedAlert {
  readonly labels: Labels;
}

export interface AlertCase {
  readonly file: string;
  readonly test: string;
  readonly intervalMs: number;
  readonly series: readonly PromtoolSeries[];
  readonly evalTimeMs: number;
  readonly alertname: string;
  readonly expected: readonly ExpectedAlert[];
}

/** Prometheus' default lookback: an instant query sees a sample up to this old. */
const LOOKBACK_MS = 5 * 60_000;

interface PromtoolFile {
  evaluation_interval?: string;
  tests: Array<{
    name?: string;
    interval?: string;
    input_series: Array<{ series: string; values: string }>;
    alert_rule_test?: Array<{ eval_time: string; alertname: string; exp_alerts?: Array<{ exp_labels?: Labels }> }>;
  }>;
}

export function readAlertCases(path: string): AlertCase[] {
  const file = parse(readFileSync(path, 'utf8')) as PromtoolFile;
  return file.tests.flatMap((test, index) => {
    const intervalMs = durationMs(test.interval ?? file.evaluation_interval ?? '1m');
    const series = test.input_series.map((input) => ({ ...parseSeriesSelector(input.series), values: expandValues(input.values) }));
    return (test.alert_rule_test ?? []).map((check) => ({
      file: path,
      test: test.name ?? `test ${index + 1}`,
      intervalMs,
      series,
      evalTimeMs: durationMs(check.eval_time),
      alertname: check.alertname,
      expected: (check.exp_alerts ?? []).map((alert) => ({ labels: alert.exp_labels ?? {} })),
    }));
  });
}

/** `name{a="x", b="y"}` as a name and labels. */
export function parseSeriesSelector(selector: string): { name: string; labels: Labels } {
  const match = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?:\{(.*)\})?\s*$/s.exec(selector);
  if (!match) throw new Error(`not a series: ${selector}`);
  const labels: Record<string, string> = {};
  for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"/g)) {
    labels[pair[1]!] = JSON.parse(`"${pair[2]}"`) as string;
  }
  return { name: match[1]!, labels };
}

/** promtool's expanding notation: `1 2 3`, `a+bxn` and `a-bxn` (n+1 values), `axn`, `_`, `_xn`, `stale`. */
export function expandValues(notation: string): Array<number | 'stale' | undefined> {
  const values: Array<number | 'stale' | undefined> = [];
  for (const token of notation.trim().split(/\s+/)) {
    if (token === 'stale') values.push('stale');
    else if (token === '_') values.push(undefined);
    else values.push(...expandToken(token));
  }
  return values;
}

function expandToken(token: string): Array<number | undefined> {
  const gap = /^_x(\d+)$/.exec(token);
  if (gap) return Array.from({ length: Number(gap[1]) }, () => undefined);
  const run = /^(-?[0-9.e+]+?)(?:([+-])([0-9.e+]+))?x(\d+)$/.exec(token);
  if (!run) return [Number(token)];
  const start = Number(run[1]);
  const step = run[2] ? Number(`${run[2]}${run[3]}`) : 0;
  return Array.from({ length: Number(run[4]) + 1 }, (_, i) => start + i * step);
}

/**
 * What an instant query at `atMs` sees of each series, as avaxmon's samples: the newest sample within
 * the lookback, none after a stale marker. `job` and `instance` are Prometheus' scrape labels, which
 * the daemon's own samples do not carry.
 */
export function samplesAt(series: readonly PromtoolSeries[], intervalMs: number, atMs: number): Sample[] {
  const samples: Sample[] = [];
  for (const one of series) {
    const value = latestValue(one, intervalMs, atMs);
    if (value === undefined) continue;
    const { job: _job, instance: _instance, ...labels } = one.labels;
    samples.push({ name: one.name, labels, value });
  }
  return samples;
}

function latestValue(series: PromtoolSeries, intervalMs: number, atMs: number): number | undefined {
  for (let step = Math.min(Math.floor(atMs / intervalMs), series.values.length - 1); step >= 0; step--) {
    if (atMs - step * intervalMs > LOOKBACK_MS) return undefined;
    const value = series.values[step];
    if (value === 'stale') return undefined;
    if (value !== undefined) return value;
  }
  return undefined;
}

function durationMs(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`not a duration: ${text}`);
  return ms;
}
