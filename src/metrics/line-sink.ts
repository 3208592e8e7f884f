import type { Labels, Sample } from './metric-desc.js';

/**
 * Where a writer of series puts them, one at a time, each family's series together. A sink reads
 * `labels` during the call only, so a writer may pass one object written over for each series.
 */
export interface LineSink {
  line(name: string, labels: Labels, value: number): void;
}

/**
 * Series given one by one to a sink, rather than as Sample objects: avaxmon's own series (run
 * timings, request counts) are known by name and labels, and only their values move. Rendered
 * straight from the writer (renderLines), a fleet's thousands of runs a minute make no
 * sample objects.
 */
export type SeriesWriter = (sink: LineSink) => void;

/** The writer's series as samples (of the families `accept` takes, when given), each with labels of its own. */
export function samplesOf(write: SeriesWriter, accept?: (name: string) => boolean): Sample[] {
  const samples: Sample[] = [];
  write({
    line(name, labels, value) {
      if (!accept || accept(name)) samples.push({ name, labels: { ...labels }, value });
    },
  });
  return samples;
}
