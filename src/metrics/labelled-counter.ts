import type { Sample } from './metric-desc.js';

/** Counts by label set, for in-memory counters (and tallies) exported as samples. */
export class LabelledCounter {
  private readonly counts = new Map<string, { labels: Record<string, string>; value: number }>();

  constructor(private readonly name: string) {}

  add(labels: Record<string, string>, amount = 1): void {
    const key = JSON.stringify(labels);
    const entry = this.counts.get(key) ?? { labels, value: 0 };
    entry.value += amount;
    this.counts.set(key, entry);
  }

  /** Drops the label sets the predicate rejects, e.g. those of a target removed by a reload. */
  retain(keep: (labels: Record<string, string>) => boolean): void {
    for (const [key, entry] of this.counts) if (!keep(entry.labels)) this.counts.delete(key);
  }

  samples(): Sample[] {
    return [...this.counts.values()].map(({ labels, value }) => ({ name: this.name, labels, value }));
  }
}
