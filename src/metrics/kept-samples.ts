import { sameLabels, type Labels, type Sample } from './metric-desc.js';
import { sharedNameList } from './shared-name-lists.js';

/**
 * A slice's kept samples (those the alert plane and the status page read) as three columns, not an
 * object per sample: at 1,000 nodes about 120,000 samples are kept, and every object kept is marked
 * again at each full collection, which ran every two seconds (bench/results/history.md, Part 7).
 * Readers get fresh Sample objects, which die young. Neighbours with the same labels (an upgrade's
 * time and whether it is scheduled, a check's verdict and its failures) keep one labels object:
 * 1.5 MB less live heap at 1,000 nodes.
 */
export class KeptSamples {
  static readonly none = new KeptSamples([], [], []);

  private constructor(
    private readonly names: readonly string[],
    private readonly labels: readonly Labels[],
    // A plain array of numbers is stored unboxed, like a Float64Array, without the typed array's
    // ArrayBuffer and backing store: 200 bytes less per slice.
    private readonly values: number[],
  ) {}

  /**
   * The samples of the families in `keep` (all when undefined). When they are `previous`'s series
   * (the same names and labels, in the same order), `previous` itself, its values written over:
   * most runs that move a kept sample move its value only (a run's time of success), and a copy
   * kept until the slice's next run would be promoted, to replace one that then waits in the old
   * generation for a full collection. Only the snapshot that owns `previous` may pass it.
   */
  static of(samples: readonly Sample[], keep: ReadonlySet<string> | undefined, previous?: KeptSamples): KeptSamples {
    if (previous?.holdsSeriesOf(samples, keep)) {
      previous.takeValuesOf(samples, keep);
      return previous;
    }
    const kept = keep ? samples.filter((sample) => keep.has(sample.name)) : samples;
    if (kept.length === 0) return KeptSamples.none;
    return new KeptSamples(
      sharedNameList(
        kept.map((sample) => sample.name),
        previous?.names,
      ),
      sharedLabels(kept, previous?.labels),
      kept.map((sample) => sample.value),
    );
  }

  /** Whether the kept ones of `samples` are these series, in the same order. */
  private holdsSeriesOf(samples: readonly Sample[], keep: ReadonlySet<string> | undefined): boolean {
    let index = 0;
    for (const sample of samples) {
      if (keep && !keep.has(sample.name)) continue;
      if (index >= this.names.length || this.names[index] !== sample.name) return false;
      if (!sameLabels(this.labels[index], sample.labels)) return false;
      index++;
    }
    return index === this.names.length;
  }

  private takeValuesOf(samples: readonly Sample[], keep: ReadonlySet<string> | undefined): void {
    let index = 0;
    for (const sample of samples) if (!keep || keep.has(sample.name)) this.values[index++] = sample.value;
  }

  /** The targets these samples are labelled with. */
  targets(): Set<string> {
    const targets = new Set<string>();
    for (const labels of this.labels) if (labels.target !== undefined) targets.add(labels.target);
    return targets;
  }

  /** Appends the samples `accept` takes to `out`. */
  appendTo(out: Sample[], accept: (name: string, labels: Labels) => boolean = () => true): void {
    for (let index = 0; index < this.names.length; index++) {
      const name = this.names[index];
      const labels = this.labels[index];
      if (accept(name, labels)) out.push({ name, labels, value: this.values[index] });
    }
  }
}

/**
 * The samples' labels, each equal to its neighbour's given as the neighbour's object, and each equal
 * to the one in its place before given as that one: a run's labels are new objects each time, and
 * the kept ones of a slice whose values moved would each be promoted to replace an equal one.
 */
function sharedLabels(samples: readonly Sample[], before: readonly Labels[] = []): Labels[] {
  const labels: Labels[] = [];
  let previous: Labels | undefined;
  for (let index = 0; index < samples.length; index++) {
    const own = samples[index].labels;
    if (previous && sameLabels(previous, own)) {
      labels.push(previous);
      continue;
    }
    const earlier = before[index];
    previous = earlier !== undefined && sameLabels(earlier, own) ? earlier : own;
    labels.push(previous);
  }
  return labels;
}
