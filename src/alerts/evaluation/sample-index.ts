import type { Labels, Sample } from '../../metrics/metric-desc.js';

/**
 * The daemon's current samples, indexed by metric name for the rules. Built for every evaluation
 * (hundreds a second at fleet scale), so lookups allocate nothing per sample they test.
 */
export class SampleIndex {
  private readonly byName = new Map<string, Sample[]>();
  /** Per name, per target, built on a name's first lookup by target: a fleet-wide rule's lookups stay cheap. */
  private readonly byNameAndTarget = new Map<string, Map<string, Sample[]>>();

  constructor(samples: readonly Sample[]) {
    for (const sample of samples) append(this.byName, sample.name, sample);
  }

  /** While set, the families looked up are added to it: what a rule's verdict was decided from. */
  reads?: Set<string>;

  all(name: string): readonly Sample[] {
    this.reads?.add(name);
    return this.byName.get(name) ?? [];
  }

  /** Samples of `name` whose labels include every pair of `match`. */
  where(name: string, match: Labels): Sample[] {
    return this.candidates(name, match).filter((sample) => matches(sample, match));
  }

  /** The value of the one series of `name` with exactly these labels for the given keys. */
  valueOf(name: string, match: Labels): number | undefined {
    for (const sample of this.candidates(name, match)) if (matches(sample, match)) return sample.value;
    return undefined;
  }

  private candidates(name: string, match: Labels): readonly Sample[] {
    if (match.target === undefined) return this.all(name);
    let byTarget = this.byNameAndTarget.get(name);
    if (!byTarget) {
      this.byNameAndTarget.set(name, (byTarget = new Map()));
      for (const sample of this.all(name)) append(byTarget, sample.labels.target ?? '', sample);
    }
    return byTarget.get(match.target) ?? [];
  }
}

/** Without Object.entries: the fleet tick calls this tens of thousands of times a second. */
function matches(sample: Sample, match: Labels): boolean {
  for (const key in match) if (sample.labels[key] !== match[key]) return false;
  return true;
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
