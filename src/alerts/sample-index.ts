import type { Labels, Sample } from '../metrics/metric-desc.js';

/** The daemon's current samples, indexed by metric name for the rules. */
export class SampleIndex {
  private readonly byName = new Map<string, Sample[]>();

  constructor(samples: readonly Sample[]) {
    for (const sample of samples) {
      const list = this.byName.get(sample.name);
      if (list) list.push(sample);
      else this.byName.set(sample.name, [sample]);
    }
  }

  all(name: string): readonly Sample[] {
    return this.byName.get(name) ?? [];
  }

  /** Samples of `name` whose labels include every pair of `match`. */
  where(name: string, match: Labels): Sample[] {
    return this.all(name).filter((sample) => Object.entries(match).every(([key, value]) => sample.labels[key] === value));
  }

  /** The value of the one series of `name` with exactly these labels for the given keys. */
  valueOf(name: string, match: Labels): number | undefined {
    return this.where(name, match)[0]?.value;
  }
}

/** Picks the named labels of a sample, for an alert's identity. */
export function pick(labels: Labels, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((key) => labels[key] !== undefined).map((key) => [key, labels[key]]));
}
