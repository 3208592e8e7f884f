import type { Labels, Sample } from '../metrics/metric-desc.js';

/** The daemon's current samples, indexed by metric name for the rules. */
export class SampleIndex {
  private readonly byName = new Map<string, Sample[]>();
  /** Per name, per target: a fleet-wide rule's lookups stay cheap with a thousand targets. */
  private readonly byNameAndTarget = new Map<string, Map<string, Sample[]>>();

  constructor(samples: readonly Sample[]) {
    for (const sample of samples) {
      append(this.byName, sample.name, sample);
      let byTarget = this.byNameAndTarget.get(sample.name);
      if (!byTarget) this.byNameAndTarget.set(sample.name, (byTarget = new Map()));
      append(byTarget, sample.labels.target ?? '', sample);
    }
  }

  all(name: string): readonly Sample[] {
    return this.byName.get(name) ?? [];
  }

  /** Samples of `name` whose labels include every pair of `match`. */
  where(name: string, match: Labels): Sample[] {
    const candidates = match.target === undefined ? this.all(name) : (this.byNameAndTarget.get(name)?.get(match.target) ?? []);
    return candidates.filter((sample) => Object.entries(match).every(([key, value]) => sample.labels[key] === value));
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

function append(lists: Map<string, Sample[]>, key: string, sample: Sample): void {
  const list = lists.get(key);
  if (list) list.push(sample);
  else lists.set(key, [sample]);
}
