import type { Sample } from './metric-desc.js';

/** Counts under each label's value in turn: a map per label, the count at the last. */
type Level = Map<string, Level | number>;

/**
 * Counts by label set, for in-memory counters (and tallies) exported as samples. A count is kept
 * under its label values, one map per label, not an object per label set: at 1,000 nodes the
 * request counters hold 24,000 counts. Label objects are made when samples are taken, and die young;
 * nothing is parsed back, since the request counts are taken before every scrape.
 */
export class LabelledCounter<Name extends string> {
  private readonly counts: Level = new Map();

  constructor(
    private readonly name: string,
    private readonly labelNames: readonly [Name, ...Name[]],
  ) {}

  add(labels: Readonly<Record<Name, string>>, amount = 1): void {
    let level = this.counts;
    const last = this.labelNames.length - 1;
    for (let index = 0; index < last; index++) {
      const value = labels[this.labelNames[index]];
      let next = level.get(value) as Level | undefined;
      if (!next) level.set(value, (next = new Map()));
      level = next;
    }
    const value = labels[this.labelNames[last]];
    level.set(value, ((level.get(value) as number | undefined) ?? 0) + amount);
  }

  samples(): Sample[] {
    const out: Sample[] = [];
    // One array of the values on the way down, written over at each depth: a scrape of 1,000
    // nodes walks 24,000 counts.
    const values: string[] = [];
    const walk = (level: Level, depth: number) => {
      for (const [value, next] of level) {
        values[depth] = value;
        if (typeof next === 'number') out.push({ name: this.name, labels: this.labelsOf(values), value: next });
        else walk(next, depth + 1);
      }
    };
    walk(this.counts, 0);
    return out;
  }

  private labelsOf(values: readonly string[]): Record<Name, string> {
    const labels = {} as Record<Name, string>;
    for (let index = 0; index < this.labelNames.length; index++) labels[this.labelNames[index]] = values[index];
    return labels;
  }
}
