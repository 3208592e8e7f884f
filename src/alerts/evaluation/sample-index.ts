import type { Labels, Sample } from '../../metrics/metric-desc.js';

/** The samples of one family, read when an evaluation first looks the family up. */
export type FamilyReader = (name: string) => Sample[];

/**
 * The daemon's current samples, indexed by metric name for the rules. Built for every evaluation
 * (hundreds a second at fleet scale), so lookups allocate nothing per sample they test. Given a
 * FamilyReader, a family is read on its first lookup: the fleet tick's evaluation looks at a few
 * of the fleet-wide families (a collector's success only for an alert whose data went missing), and
 * the 17,000 samples made up front at 1,000 nodes outlived two young-generation collections
 * during it, so V8 promoted them all, every 5 s.
 */
export class SampleIndex {
  private readonly byName = new Map<string, Sample[]>();
  /** Per name, per target, built on a name's first lookup by target: a fleet-wide rule's lookups stay cheap. */
  private readonly byNameAndTarget = new Map<string, Map<string, Sample[]>>();
  private readonly readFamily?: FamilyReader;

  constructor(samples: readonly Sample[] | FamilyReader) {
    if (typeof samples === 'function') this.readFamily = samples;
    else for (const sample of samples) append(this.byName, sample.name, sample);
  }

  /** While set, the families looked up are added to it: what a rule's verdict was decided from. */
  reads?: Set<string>;

  all(name: string): readonly Sample[] {
    this.reads?.add(name);
    let samples = this.byName.get(name);
    if (samples === undefined && this.readFamily) this.byName.set(name, (samples = this.readFamily(name)));
    return samples ?? [];
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
