import { describe, expect, it } from 'vitest';
import { renderLines, renderSamples } from '../../src/metrics/exposition.js';
import { samplesOf, type SeriesWriter } from '../../src/metrics/line-sink.js';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import type { Labels } from '../../src/metrics/metric-desc.js';

/** A writer of run timings as SelfMetrics gives them: one labels object written over for every series. */
function runTimings(collectors: readonly string[], durations: readonly number[], successAt: number): SeriesWriter {
  return (sink) => {
    const labels: Record<string, string> = { target: 'node-"1"', collector: '' };
    collectors.forEach((collector, index) => {
      labels.collector = collector;
      sink.line('avaxmon_collector_duration_seconds', labels, durations[index]);
    });
    for (const collector of collectors) {
      labels.collector = collector;
      sink.line('avaxmon_collector_last_success_timestamp_seconds', labels, successAt);
    }
  };
}

describe("a slice rendered from a writer's series", () => {
  it('holds the bytes and family ranges renderSamples gives for the same series', () => {
    const write = runTimings(['health', 'peers', 'é'], [0.012346, 1.5, 2], 1764532800.123);
    const lines = renderLines(write);
    const samples = renderSamples(samplesOf(write));
    expect(lines.buffer.equals(samples.buffer)).toBe(true);
    expect(lines.names).toEqual(['avaxmon_collector_duration_seconds', 'avaxmon_collector_last_success_timestamp_seconds']);
    expect(lines.ends).toEqual(samples.ends);
    expect(lines.buffer.toString()).toContain('avaxmon_collector_duration_seconds{target="node-\\"1\\"",collector="peers"} 1.5\n');
  });

  it('is the previous rendering itself when the bytes are the same, and new when a value moved', () => {
    const previous = renderLines(runTimings(['health', 'peers'], [0.5, 1], 10.25));
    expect(renderLines(runTimings(['health', 'peers'], [0.5, 1], 10.25), previous)).toBe(previous);
    const moved = renderLines(runTimings(['health', 'peers'], [0.5, 1.25], 10.25), previous);
    expect(moved).not.toBe(previous);
    expect(moved.buffer.toString()).toContain('collector="peers"} 1.25\n');
  });

  it("refuses a writer that gives a family's series apart: its range would be two", () => {
    const labels: Labels = { target: 'a' };
    const apart: SeriesWriter = (sink) => {
      sink.line('avaxmon_node_peers', labels, 1);
      sink.line('avaxmon_target_up', labels, 1);
      sink.line('avaxmon_node_peers', labels, 2);
    };
    expect(() => renderLines(apart)).toThrow(/avaxmon_node_peers: a writer gave this family's series apart/);
  });

  it('in a snapshot, keeps samples of the families rules read only, each with labels of its own, and removes the series when none is written', () => {
    const snapshot = new MetricsSnapshot(allMetrics, { keepSamplesOf: new Set(['avaxmon_collector_last_success_timestamp_seconds']) });
    snapshot.setLines('node-1/runs', runTimings(['health', 'peers'], [0.5, 1], 10.25));
    expect(snapshot.samples()).toEqual([
      { name: 'avaxmon_collector_last_success_timestamp_seconds', labels: { target: 'node-"1"', collector: 'health' }, value: 10.25 },
      { name: 'avaxmon_collector_last_success_timestamp_seconds', labels: { target: 'node-"1"', collector: 'peers' }, value: 10.25 },
    ]);
    const body = snapshot.body('text', false).toString();
    expect(body).toContain('avaxmon_collector_duration_seconds{target="node-\\"1\\"",collector="health"} 0.5\n');
    const version = snapshot.currentVersion;
    snapshot.setLines('node-1/runs', runTimings(['health', 'peers'], [0.5, 1], 10.25));
    expect(snapshot.currentVersion).toBe(version);
    snapshot.setLines('node-1/runs', () => {});
    expect(snapshot.samples()).toEqual([]);
    expect(snapshot.body('text', false).toString()).not.toContain('avaxmon_collector_duration_seconds{');
    snapshot.setLines('node-2/runs', () => {});
    expect(snapshot.currentVersion).toBe(version + 1);
  });
});
