import { gzip as gzipAsync, gzipSync, constants } from 'node:zlib';
import { promisify } from 'node:util';
import type { MetricDesc, Sample } from './metric-desc.js';
import { familyHeader, renderSamples, type ExpositionFormat } from './exposition.js';

const gzipBuffer = promisify(gzipAsync);
/** Scrapers care about latency more than ratio: level 1 is several times faster and still ~8x smaller. */
const GZIP_OPTIONS = { level: constants.Z_BEST_SPEED };
/**
 * A new assembly starts at most this often, or every ten times the cost of assembly plus gzip if that
 * is longer (so they take at most a tenth of a core whatever the fleet's size): a scrape arriving
 * sooner gets the previous body, and a trailing assembly catches up.
 */
export const MIN_ASSEMBLY_INTERVAL_MS = 250;
const ASSEMBLY_COST_FACTOR = 10;

export interface SnapshotOptions {
  /** Keep the samples of these families only (for samples(), samplesOf(), samplesNamed()); all when omitted. */
  readonly keepSamplesOf?: ReadonlySet<string>;
}

interface Slice {
  /** The kept samples (see SnapshotOptions); every family's lines are rendered whatever is kept. */
  readonly samples: readonly Sample[];
  /** The slice's lines per family, encoded once when the slice is set. */
  readonly families: ReadonlyMap<string, Buffer>;
}

/** One family: its lines per slice, and the version in which they last changed. */
interface Family {
  readonly desc: MetricDesc;
  readonly headers: Record<ExpositionFormat, Buffer>;
  readonly bySlice: Map<string, Buffer>;
  changedIn: number;
}

interface Assembled {
  readonly body: Buffer;
  readonly version: number;
  /** Where each family's sample lines sit in the body, so the next assembly copies unchanged ones. */
  readonly lines: ReadonlyMap<string, { readonly start: number; readonly end: number }>;
  gzipped?: Promise<Buffer>;
  gzippedSync?: Buffer;
}

/**
 * The collected series, as slices replaced whole by each collector run. A slice is rendered when it
 * is set, and only its families are marked changed; an assembly joins the slices of changed
 * families and copies the lines of the rest from the previous body. Assembly is lazy (on a scrape,
 * in the format asked for) and coalesced (at most every MIN_ASSEMBLY_INTERVAL_MS); gzip is computed
 * once per assembled body, off the event loop.
 */
export class MetricsSnapshot {
  private readonly slices = new Map<string, Slice>();
  private readonly families = new Map<string, Family>();
  /** Slice keys holding samples of a target, so a target's samples are found without a scan. */
  private readonly slicesOfTarget = new Map<string, Set<string>>();
  private readonly assembled = new Map<ExpositionFormat, Assembled>();
  private readonly trailing = new Map<ExpositionFormat, NodeJS.Timeout>();
  private readonly refreshers: Array<() => void> = [];
  private lastAssemblyMs = -Infinity;
  private assemblyCostMs = 0;
  private gzipCostMs = 0;
  /** Bumped on every change; an assembly is current while its version matches. */
  private version = 0;

  constructor(
    descs: readonly MetricDesc[],
    private readonly options: SnapshotOptions = {},
  ) {
    for (const desc of descs) {
      this.families.set(desc.name, {
        desc,
        headers: { text: Buffer.from(familyHeader(desc, 'text')), openmetrics: Buffer.from(familyHeader(desc, 'openmetrics')) },
        bySlice: new Map(),
        changedIn: 0,
      });
    }
  }

  /** Replaces one slice (e.g. "validator-1/health") whole; an empty list removes its series. */
  setSlice(key: string, samples: readonly Sample[]): void {
    const previous = this.slices.get(key);
    if (!previous && samples.length === 0) return;
    const families = renderSamples(samples);
    const kept = this.kept(samples);
    if (previous && sameFamilies(previous.families, families)) {
      this.slices.set(key, { samples: kept, families: previous.families });
      return;
    }
    for (const name of previous?.families.keys() ?? []) {
      if (families.has(name)) continue;
      const family = this.families.get(name);
      if (family?.bySlice.delete(key)) family.changedIn = this.version + 1;
    }
    for (const [name, lines] of families) {
      const family = this.families.get(name);
      if (!family) continue;
      family.bySlice.set(key, lines);
      family.changedIn = this.version + 1;
    }
    this.indexTargets(key, previous?.samples ?? [], kept);
    if (samples.length === 0) this.slices.delete(key);
    else this.slices.set(key, { samples: kept, families });
    this.version++;
  }

  private kept(samples: readonly Sample[]): readonly Sample[] {
    const keep = this.options.keepSamplesOf;
    return keep ? samples.filter((sample) => keep.has(sample.name)) : samples;
  }

  /** Every kept sample; for the alert sweep, tests and tools, never on the collection path. */
  samples(): Sample[] {
    return [...this.slices.values()].flatMap((slice) => slice.samples);
  }

  /** The samples of these families only, skipping the slices that hold none of them. */
  samplesNamed(names: ReadonlySet<string>): Sample[] {
    const out: Sample[] = [];
    for (const slice of this.slices.values()) {
      if (![...slice.families.keys()].some((name) => names.has(name))) continue;
      for (const sample of slice.samples) if (names.has(sample.name)) out.push(sample);
    }
    return out;
  }

  /** The samples labelled with this target, from whichever slices hold them. */
  samplesOf(target: string): Sample[] {
    const out: Sample[] = [];
    for (const key of this.slicesOfTarget.get(target) ?? []) {
      for (const sample of this.slices.get(key)?.samples ?? []) if (sample.labels.target === target) out.push(sample);
    }
    return out;
  }

  /** The families a slice holds now. */
  familiesOf(key: string): string[] {
    return [...(this.slices.get(key)?.families.keys() ?? [])];
  }

  /** Runs before each scrape: for the few series that move on their own (e.g. queue age). */
  beforeServe(refresh: () => void): void {
    this.refreshers.push(refresh);
  }

  /** The current body, assembled now if anything changed; for tests and one-off callers. */
  body(format: ExpositionFormat, gzip: boolean): Buffer {
    for (const refresh of this.refreshers) refresh();
    const assembled = this.currentOrAssemble(format);
    if (!gzip) return assembled.body;
    assembled.gzippedSync ??= gzipSync(assembled.body, GZIP_OPTIONS);
    return assembled.gzippedSync;
  }

  /**
   * The scrape path, in the format asked for. When something changed, the body is assembled now,
   * unless the last assembly is younger than the coalescing window: then the previous body is
   * served at once and a trailing assembly follows at the window's end. So assembly (and gzip,
   * computed once per assembled body, off the event loop) happens a few times a second at most
   * however many scrapers there are, a scrape waits for at most one assembly, and a body is never
   * older than the window.
   */
  async serve(format: ExpositionFormat, gzip: boolean): Promise<Buffer> {
    for (const refresh of this.refreshers) refresh();
    const assembled = this.freshEnough(format);
    if (!gzip) return assembled.body;
    if (assembled.gzippedSync) return assembled.gzippedSync;
    assembled.gzipped ??= this.gzip(assembled.body);
    return assembled.gzipped;
  }

  private freshEnough(format: ExpositionFormat): Assembled {
    const current = this.assembled.get(format);
    if (current?.version === this.version) return current;
    const sinceMs = performance.now() - this.lastAssemblyMs;
    const windowMs = Math.max(MIN_ASSEMBLY_INTERVAL_MS, ASSEMBLY_COST_FACTOR * (this.assemblyCostMs + this.gzipCostMs));
    if (!current || sinceMs >= windowMs) return this.currentOrAssemble(format);
    if (!this.trailing.has(format)) {
      const timer = setTimeout(() => {
        this.trailing.delete(format);
        this.currentOrAssemble(format);
      }, windowMs - sinceMs);
      timer.unref();
      this.trailing.set(format, timer);
    }
    return current;
  }

  private async gzip(body: Buffer): Promise<Buffer> {
    const started = performance.now();
    const gzipped = await gzipBuffer(body, GZIP_OPTIONS);
    this.gzipCostMs = performance.now() - started;
    return gzipped;
  }

  private currentOrAssemble(format: ExpositionFormat): Assembled {
    const current = this.assembled.get(format);
    if (current?.version === this.version) return current;
    const started = performance.now();
    const parts: Buffer[] = [];
    const lines = new Map<string, { start: number; end: number }>();
    let offset = 0;
    const push = (part: Buffer) => {
      parts.push(part);
      offset += part.length;
    };
    for (const [name, family] of this.families) {
      if (family.bySlice.size === 0) continue;
      push(family.headers[format]);
      const start = offset;
      const unchanged = current && family.changedIn <= current.version ? current.lines.get(name) : undefined;
      if (current && unchanged) push(current.body.subarray(unchanged.start, unchanged.end));
      else for (const slice of family.bySlice.values()) push(slice);
      lines.set(name, { start, end: offset });
    }
    const assembled: Assembled = { body: Buffer.concat(parts, offset), version: this.version, lines };
    this.assembled.set(format, assembled);
    this.lastAssemblyMs = performance.now();
    this.assemblyCostMs = this.lastAssemblyMs - started;
    return assembled;
  }

  private indexTargets(key: string, before: readonly Sample[], after: readonly Sample[]): void {
    const targetsAfter = new Set(after.map((sample) => sample.labels.target).filter((target) => target !== undefined));
    for (const sample of before) {
      const target = sample.labels.target;
      if (target === undefined || targetsAfter.has(target)) continue;
      const keys = this.slicesOfTarget.get(target);
      keys?.delete(key);
      if (keys?.size === 0) this.slicesOfTarget.delete(target);
    }
    for (const target of targetsAfter) {
      let keys = this.slicesOfTarget.get(target);
      if (!keys) this.slicesOfTarget.set(target, (keys = new Set()));
      keys.add(key);
    }
  }
}

function sameFamilies(a: ReadonlyMap<string, Buffer>, b: ReadonlyMap<string, Buffer>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, lines] of a) if (!b.get(name)?.equals(lines)) return false;
  return true;
}
