import { systemClock, type Clock, type Timer } from '../schedule/clock.js';
import type { Labels, MetricDesc, Sample } from './metric-desc.js';
import { familyHeader, rangeOf, renderLines, renderSamples, type ExpositionFormat, type RenderedSlice } from './exposition.js';
import { samplesOf, type SeriesWriter } from './line-sink.js';
import type { DeflateWriter } from './deflate-writer.js';
import { GzipGroups, type GzipFamily } from './gzip-groups.js';
import { gzipMember, type DeflatePart } from './gzip-stream.js';
import { KeptSamples } from './kept-samples.js';
import { releaseOwned } from '../runtime/owned-buffer.js';
import { ScrapeCadence } from './scrape-cadence.js';
import { TargetFamilyChanges } from './target-family-changes.js';

/**
 * A new assembly of a format and encoding starts at most this often after the last one, or ten times
 * its cost later if that is longer (so they take at most a tenth of a core whatever the fleet's
 * size): a scrape arriving sooner gets the previous body, and a trailing assembly catches up.
 */
export const MIN_ASSEMBLY_INTERVAL_MS = 250;
/**
 * The most a served body may lag the collected data, whatever the fleet size or CPU limit: Prometheus
 * cannot tell an old body from a new one. The window grows with the assembly's cost up to this bound.
 */
export const MAX_ASSEMBLY_INTERVAL_MS = 1_000;
const ASSEMBLY_COST_FACTOR = 10;
/**
 * A plain body no scrape asked for in this long is let go at the next scrape: Prometheus scrapes
 * with gzip, and a plain body (21 MB at 1,000 nodes) kept for an operator's one `curl` would stay
 * until a restart. A scraper without gzip asks far more often and keeps its body's memory.
 */
export const PLAIN_BODY_IDLE_MS = 120_000;
/**
 * A gzip body prepared for a scrape expected at a cadence (see ScrapeCadence) is assembled this long
 * before it, or three times what its last assembly took if that is longer, up to the maximum: so a
 * scrape, every 2 s or every 15 s, finds its body ready and only sends it.
 */
const MIN_PREPARE_LEAD_MS = 500;
const MAX_PREPARE_LEAD_MS = 1_500;
/**
 * The oldest prepared body a scrape is given: a scrape that comes later than expected (or for which no
 * body was prepared) gets one assembled now. Bounds how far a served body lags the collected data.
 */
export const MAX_PREPARED_AGE_MS = 2_500;
/** A body's memory is reused by the next assembly: room for the fleet to grow a little meanwhile. */
const BODY_HEADROOM = 1.1;

export interface SnapshotOptions {
  /** Keep the samples of these families only (for samples(), samplesOf(), samplesNamed()); all when omitted. */
  readonly keepSamplesOf?: ReadonlySet<string>;
  /** Families samplesNamed() is asked for every few seconds (the fleet-wide rules'): their slices are indexed, other families' scanned. */
  readonly indexSlicesOf?: ReadonlySet<string>;
  /** The coalescing window and its trailing assembly run on it; the system clock by default. */
  readonly clock?: Clock;
}

/** Written over when its run moves it, not replaced: a record kept until the next run would be promoted. */
interface Slice {
  /** The kept samples (see SnapshotOptions); every family's lines are rendered whatever is kept. */
  kept: KeptSamples;
  rendered: RenderedSlice;
  /** The snapshot's version when the slice last changed. */
  version: number;
}

/** One family of the catalogue, with its header in each format and the bytes of its lines in the slices (none: left out of the body). */
interface Family extends GzipFamily {
  readonly desc: MetricDesc;
  readonly headers: Record<ExpositionFormat, Buffer>;
  bytes: number;
  changedAt: number;
}

/** A family and the slices holding its lines, gathered for one assembly. */
interface FamilyLines {
  readonly name: string;
  readonly family: Family;
  readonly slices: readonly RenderedSlice[];
}

/** A body in one format and encoding, current while its version matches the snapshot's. */
interface Rendition {
  /** The body, when plain. */
  readonly plain?: Buffer;
  /** The body's deflate stream, when gzip: MetricsBody appends the runtime metrics to it. */
  readonly deflated?: DeflatePart;
  /** The deflate stream as a gzip member, made when asked for. */
  gzipped?: Buffer;
  readonly version: number;
  /** When it was last known to be the snapshot's data: its assembly's start, or a later look that found nothing changed. */
  currentAtMs: number;
  /** What its assembly cost: the next one of this format and encoding waits ten times that at most. */
  readonly costMs: number;
  /** Once body() handed a plain body out, its memory is not reused. */
  handedOut?: boolean;
  /** Responses still sending the plain body (see lendPlain): its memory is not reused meanwhile. */
  lent: number;
  /** When a scrape last got it. */
  servedAtMs: number;
  /** Assembled (or found current) ahead of an expected scrape: served while younger than MAX_PREPARED_AGE_MS. */
  prepared: boolean;
}

type RenditionKey = `${ExpositionFormat}/${'gzip' | 'plain'}`;

/**
 * How long after an assembly a changed body may wait for the next: ten times what an assembly cost,
 * so they take a tenth of the time at most, but never past MAX_ASSEMBLY_INTERVAL_MS: on a starved
 * core the cost grows with the starvation, and the window with it would serve minute-old data as new.
 */
export function coalescingWindowMs(costMs: number): number {
  return Math.min(MAX_ASSEMBLY_INTERVAL_MS, Math.max(MIN_ASSEMBLY_INTERVAL_MS, ASSEMBLY_COST_FACTOR * costMs));
}

/** How long before an expected scrape its body is assembled, given what the last assembly took. */
export function prepareLeadMs(costMs: number): number {
  return Math.min(MAX_PREPARE_LEAD_MS, Math.max(MIN_PREPARE_LEAD_MS, 3 * costMs));
}

/**
 * The collected series, as slices replaced whole by each collector run. A slice is rendered when it
 * is set; an assembly joins the slices' lines family by family into one body. Assembly is lazy (on a
 * scrape, in the format and encoding asked for) and coalesced (at most every MIN_ASSEMBLY_INTERVAL_MS).
 */
export class MetricsSnapshot {
  private readonly slices = new Map<string, Slice>();
  private readonly families = new Map<string, Family>();
  /** Slice keys holding samples of a target, so a target's samples are found without a scan. */
  private readonly slicesOfTarget = new Map<string, Set<string>>();
  /** Slice keys holding each family of SnapshotOptions.indexSlicesOf. */
  private readonly slicesOfFamily = new Map<string, Set<string>>();
  private readonly familyChanges = new TargetFamilyChanges();
  private readonly gzipGroups: Record<ExpositionFormat, GzipGroups> = { text: new GzipGroups(), openmetrics: new GzipGroups() };
  private readonly renditions = new Map<RenditionKey, Rendition>();
  private readonly trailing = new Map<RenditionKey, Timer>();
  private readonly cadences: Record<RenditionKey, ScrapeCadence> = {
    'text/gzip': new ScrapeCadence(),
    'openmetrics/gzip': new ScrapeCadence(),
    'text/plain': new ScrapeCadence(),
    'openmetrics/plain': new ScrapeCadence(),
  };
  private readonly preparing = new Map<ExpositionFormat, Timer>();
  private readonly refreshers: Array<() => void> = [];
  /** Bumped on every change; an assembly is current while its version matches. */
  private version = 0;
  private readonly clock: Clock;

  constructor(
    descs: readonly MetricDesc[],
    private readonly options: SnapshotOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    for (const name of options.indexSlicesOf ?? []) this.slicesOfFamily.set(name, new Set());
    for (const desc of descs) {
      this.families.set(desc.name, {
        name: desc.name,
        desc,
        headers: { text: Buffer.from(familyHeader(desc, 'text')), openmetrics: Buffer.from(familyHeader(desc, 'openmetrics')) },
        bytes: 0,
        changedAt: 0,
      });
    }
  }

  /** Replaces one slice (e.g. "validator-1/health") whole; an empty list removes its series. */
  setSlice(key: string, samples: readonly Sample[]): void {
    const previous = this.slices.get(key);
    if (!previous && samples.length === 0) return;
    this.replace(key, previous, renderSamples(samples, previous?.rendered), () => samples);
  }

  /**
   * As setSlice, for a slice whose series a writer gives (avaxmon's own run timings and request
   * counts): rendered as written, and made samples of only for the families rules read.
   */
  setLines(key: string, write: SeriesWriter): void {
    const previous = this.slices.get(key);
    const keep = this.options.keepSamplesOf;
    this.replace(key, previous, renderLines(write, previous?.rendered), () => samplesOf(write, keep && ((name) => keep.has(name))));
  }

  private replace(key: string, previous: Slice | undefined, rendered: RenderedSlice, samples: () => readonly Sample[]): void {
    // Same lines, same kept samples: the slice stays as it was, so this run's copies die young
    // instead of being promoted to replace identical ones (most slices of a fleet do not move).
    if (rendered === previous?.rendered || (!previous && rendered.names.length === 0)) return;
    const replaced = previous?.rendered.buffer;
    const kept = KeptSamples.of(samples(), this.options.keepSamplesOf, previous?.kept);
    const targetsBefore = (previous?.kept ?? KeptSamples.none).targets();
    // Kept samples written over hold the same series, so the same targets.
    const targetsAfter = kept === previous?.kept ? targetsBefore : kept.targets();
    this.version += 1;
    const targets = targetsAfter === targetsBefore ? targetsBefore : new Set([...targetsBefore, ...targetsAfter]);
    this.trackFamilies(key, previous?.rendered, rendered, targets);
    // After the changes are recorded: a target no slice holds any more is forgotten with them.
    this.indexTargets(key, targetsBefore, targetsAfter);
    if (rendered.names.length === 0) this.slices.delete(key);
    else if (previous) {
      previous.kept = kept;
      previous.rendered = rendered;
      previous.version = this.version;
    } else this.slices.set(key, { kept, rendered, version: this.version });
    // Nothing else holds a replaced slice's lines (assemblies copy them as they run), which would
    // otherwise wait in the old generation for a full collection.
    if (replaced) releaseOwned(replaced);
  }

  /**
   * What a replaced slice changes for each family: the index of SnapshotOptions.indexSlicesOf, for the
   * gzip groups its bytes and the version its lines last changed at, and for the alert sweep the
   * version at which a kept family last changed for each of the slice's targets.
   */
  private trackFamilies(key: string, before: RenderedSlice | undefined, after: RenderedSlice, targets: ReadonlySet<string>): void {
    const changed = (name: string) => {
      const family = this.families.get(name);
      if (family) family.changedAt = this.version;
      if (this.options.keepSamplesOf && !this.options.keepSamplesOf.has(name)) return;
      for (const target of targets) this.familyChanges.changed(target, name, this.version);
    };
    for (const name of before?.names ?? []) {
      const range = rangeOf(before!, name)!;
      const family = this.families.get(name);
      if (family) family.bytes -= range.end - range.start;
      if (after.names.includes(name)) continue;
      this.slicesOfFamily.get(name)?.delete(key);
      changed(name);
    }
    for (const name of after.names) {
      const range = rangeOf(after, name)!;
      this.slicesOfFamily.get(name)?.add(key);
      const family = this.families.get(name);
      if (family) family.bytes += range.end - range.start;
      const was = before && rangeOf(before, name);
      if (!was || before!.buffer.compare(after.buffer, range.start, range.end, was.start, was.end) !== 0) changed(name);
    }
  }

  /** The version of the last change: what an evaluation reading the samples now saw. */
  get currentVersion(): number {
    return this.version;
  }

  /**
   * The latest version at which the samples of any of `families` labelled with `target` may have
   * changed: when it is not past the version an evaluation read them at, they are the same.
   */
  changedSince(target: string, families: Iterable<string>): number {
    return this.familyChanges.latest(target, families, this.version);
  }

  /**
   * Changes whenever the slice's lines change (undefined while it holds none): a run that left its
   * slice as it was changed nothing a rule reads.
   */
  sliceVersion(key: string): number | undefined {
    return this.slices.get(key)?.version;
  }

  /** Every kept sample; for the alert sweep, tests and tools, never on the collection path. */
  samples(): Sample[] {
    const out: Sample[] = [];
    for (const slice of this.slices.values()) slice.kept.appendTo(out);
    return out;
  }

  /** The kept samples of these families only (the fleet tick reads a few of tens of thousands). */
  samplesNamed(names: Iterable<string>): Sample[] {
    const out: Sample[] = [];
    const unindexed = new Set<string>();
    for (const name of names) {
      const keys = this.slicesOfFamily.get(name);
      if (!keys) unindexed.add(name);
      const isName = (named: string) => named === name;
      for (const key of keys ?? []) this.slices.get(key)?.kept.appendTo(out, isName);
    }
    const isUnindexed = (name: string) => unindexed.has(name);
    if (unindexed.size > 0) for (const slice of this.slices.values()) slice.kept.appendTo(out, isUnindexed);
    return out;
  }

  /** The samples labelled with this target (of `families` only, when given), from whichever slices hold them. */
  samplesOf(target: string, families?: ReadonlySet<string>): Sample[] {
    const out: Sample[] = [];
    const ofTarget = families
      ? (name: string, labels: Labels) => labels.target === target && families.has(name)
      : (_name: string, labels: Labels) => labels.target === target;
    for (const key of this.slicesOfTarget.get(target) ?? []) this.slices.get(key)?.kept.appendTo(out, ofTarget);
    return out;
  }

  /** Every target some slice holds samples of. */
  targets(): string[] {
    return [...this.slicesOfTarget.keys()];
  }

  /** The families a slice holds now. */
  familiesOf(key: string): string[] {
    return [...(this.slices.get(key)?.rendered.names ?? [])];
  }

  /** Runs before each scrape: for the few series that move on their own (e.g. queue age). */
  beforeServe(refresh: () => void): void {
    this.refreshers.push(refresh);
  }

  /** The current body, assembled now if anything changed; for tests and one-off callers. */
  body(format: ExpositionFormat, gzip: boolean): Buffer {
    const rendition = this.currentOrAssemble(format, gzip);
    rendition.handedOut = true;
    return bodyOf(rendition);
  }

  /**
   * The scrape path, in the format and encoding asked for. When something changed, the body is
   * assembled now, unless its last assembly is younger than its coalescing window: then the previous
   * body is served at once and a trailing assembly follows at the window's end. So each format and
   * encoding is assembled a few times a second at most however many scrapers there are, and a body
   * is never older than its window, at most MAX_ASSEMBLY_INTERVAL_MS. Gzip scrapes that come at a
   * cadence find their body prepared shortly before (prepareLeadMs), at most MAX_PREPARED_AGE_MS old:
   * at 1,000 nodes a scrape then only sends it, 15 s after the last as 2 s after. A gzip body is compressed as
   * it is assembled (see deflate-writer.ts), never from an assembled plain body. A plain body is
   * written over by the next assembly: the caller copies it before it awaits anything.
   */
  serve(format: ExpositionFormat, gzip: boolean): Buffer {
    return bodyOf(this.served(format, gzip));
  }

  /**
   * The plain body, lent to a response until `done()`: no assembly writes over it meanwhile, so the
   * response sends it without a copy. Unless plain scrapes come again (a scraper without gzip, whose
   * next body reuses this one's memory), it is let go once sent: an operator's `curl` at
   * 1,000 nodes does not hold 21 MB for PLAIN_BODY_IDLE_MS. `done(sent)`: whether the response was
   * sent whole; only then is its memory handed back at once rather than at V8's next full
   * collection, since a write the socket has not finished may still read it.
   */
  lendPlain(format: ExpositionFormat): { readonly body: Buffer; done(sent: boolean): void } {
    const key = renditionKey(format, false);
    const rendition = this.served(format, false);
    rendition.lent += 1;
    let returned = false;
    const done = (sent: boolean) => {
      if (returned) return;
      returned = true;
      rendition.lent -= 1;
      if (rendition.lent > 0) return;
      const current = this.renditions.get(key) === rendition;
      if (current && this.cadences[key].repeated()) return;
      if (current) this.renditions.delete(key);
      // Its memory is its own: no assembly reuses a lent body's (bufferFor), and handed-out ones stay.
      if (sent && !rendition.handedOut) releaseOwned(rendition.plain!);
    };
    return { body: rendition.plain!, done };
  }

  /** As serve() with gzip, as a deflate stream to which more parts may be appended before the gzip framing. */
  serveDeflated(format: ExpositionFormat): DeflatePart {
    return this.served(format, true).deflated!;
  }

  private served(format: ExpositionFormat, gzip: boolean): Rendition {
    const nowMs = this.clock.now();
    this.dropIdlePlainBodies(nowMs);
    const rendition = this.freshEnough(format, gzip, nowMs);
    rendition.servedAtMs = nowMs;
    this.cadences[renditionKey(format, gzip)].scraped(nowMs);
    if (gzip) this.prepareForNextScrape(format, nowMs, rendition.costMs);
    return rendition;
  }

  /**
   * Assembles the gzip body shortly before the next scrape expected at this format's cadence: one
   * assembly per scrape, as when the scrape itself assembled, but outside it.
   */
  private prepareForNextScrape(format: ExpositionFormat, nowMs: number, costMs: number): void {
    this.clock.clearTimeout(this.preparing.get(format));
    this.preparing.delete(format);
    const nextMs = this.cadences[renditionKey(format, true)].nextMs();
    if (nextMs === undefined) return;
    const delayMs = nextMs - prepareLeadMs(costMs) - nowMs;
    // Scrapes closer together than the lead are served by the coalescing window.
    if (delayMs <= 0) return;
    const timer = this.clock.setTimeout(() => {
      this.preparing.delete(format);
      this.currentOrAssemble(format, true, true);
    }, delayMs);
    timer.unref();
    this.preparing.set(format, timer);
  }

  private dropIdlePlainBodies(nowMs: number): void {
    for (const format of ['text', 'openmetrics'] as const) {
      const key = renditionKey(format, false);
      const idleMs = nowMs - (this.renditions.get(key)?.servedAtMs ?? nowMs);
      if (idleMs >= PLAIN_BODY_IDLE_MS) this.renditions.delete(key);
    }
  }

  /**
   * A body young enough is served as it is, changed or not, without even the refreshers' work (at
   * 1,000 nodes the request counts' rendering is a good part of an assembly's cost).
   */
  private freshEnough(format: ExpositionFormat, gzip: boolean, nowMs: number): Rendition {
    const key = renditionKey(format, gzip);
    const current = this.renditions.get(key);
    // Each body's own age, not the last assembly of any: a text scrape just after a gzip one must not
    // get a text body as old as the last text scrape.
    const sinceMs = nowMs - (current?.currentAtMs ?? Number.NEGATIVE_INFINITY);
    const windowMs = coalescingWindowMs(current?.costMs ?? 0);
    // A negative span is the wall clock stepped back: nothing to wait for.
    if (!current || sinceMs < 0) return this.currentOrAssemble(format, gzip);
    if (current.prepared && sinceMs < MAX_PREPARED_AGE_MS) return current;
    if (sinceMs >= windowMs) return this.currentOrAssemble(format, gzip);
    if (!this.trailing.has(key)) {
      const timer = this.clock.setTimeout(() => {
        this.trailing.delete(key);
        this.currentOrAssemble(format, gzip);
      }, windowMs - sinceMs);
      timer.unref();
      this.trailing.set(key, timer);
    }
    return current;
  }

  /** After the refreshers, the body of the snapshot as it is now: the current one if nothing changed since. */
  private currentOrAssemble(format: ExpositionFormat, gzip: boolean, prepared = false): Rendition {
    const started = performance.now();
    for (const refresh of this.refreshers) refresh();
    // The data as of now: the assembly below runs without a pause, so nothing changes meanwhile.
    const nowMs = this.clock.now();
    const key = renditionKey(format, gzip);
    const current = this.renditions.get(key);
    if (current?.version === this.version) {
      current.currentAtMs = nowMs;
      current.prepared = prepared;
      return current;
    }
    const body = gzip ? { deflated: this.assembleDeflated(format) } : { plain: this.assemblePlain(format, current) };
    const rendition: Rendition = {
      ...body,
      version: this.version,
      currentAtMs: nowMs,
      costMs: performance.now() - started,
      servedAtMs: nowMs,
      prepared,
      lent: 0,
    };
    this.renditions.set(key, rendition);
    return rendition;
  }

  /** Copies each family's header and its slices' lines into one body of the known size. */
  private assemblePlain(format: ExpositionFormat, current: Rendition | undefined): Buffer {
    const lines = this.linesByFamily();
    let size = 0;
    forEachPiece(lines, format, (_source, start, end) => (size += end - start));
    const body = bufferFor(current, size);
    let offset = 0;
    forEachPiece(lines, format, (source, start, end) => {
      offset += source.copy(body, offset, start, end);
    });
    return body;
  }

  /** Families whose lines did not change since the last gzip assembly are not walked, copied or compressed again. */
  private assembleDeflated(format: ExpositionFormat): DeflatePart {
    const present = [...this.families.values()].filter((family) => family.bytes > 0);
    return this.gzipGroups[format].assemble(present, this.version, (stale) => {
      const lines = new Map(this.linesByFamily(stale).map((family) => [family.name, family]));
      return (name: string, writer: DeflateWriter) =>
        forEachPiece([lines.get(name)!], format, (source, start, end) => writer.write(source, start, end));
    });
  }

  /**
   * The slices holding each family's lines (of `only` these, when given), in catalogue order: gathered
   * at each assembly from the slices' own lists, not kept in an index per family, which held 4 MB at
   * 1,000 nodes for a pass over 9,000 slices that takes a millisecond. Families outside the catalogue
   * are left out.
   */
  private linesByFamily(only?: ReadonlySet<string>): FamilyLines[] {
    const gathered = new Map<string, RenderedSlice[]>();
    for (const { rendered } of this.slices.values()) {
      for (const name of rendered.names) {
        if (only && !only.has(name)) continue;
        const slices = gathered.get(name);
        if (slices) slices.push(rendered);
        else gathered.set(name, [rendered]);
      }
    }
    const lines: FamilyLines[] = [];
    for (const [name, family] of this.families) {
      const slices = gathered.get(name);
      if (slices) lines.push({ name, family, slices });
    }
    return lines;
  }

  private indexTargets(key: string, targetsBefore: ReadonlySet<string>, targetsAfter: ReadonlySet<string>): void {
    for (const target of targetsBefore) {
      if (targetsAfter.has(target)) continue;
      const keys = this.slicesOfTarget.get(target);
      keys?.delete(key);
      if (keys?.size !== 0) continue;
      this.slicesOfTarget.delete(target);
      this.familyChanges.forget(target);
    }
    for (const target of targetsAfter) {
      let keys = this.slicesOfTarget.get(target);
      if (!keys) this.slicesOfTarget.set(target, (keys = new Set()));
      keys.add(key);
    }
  }
}

/**
 * `size` bytes in the current plain body's memory when it was neither handed out nor lent to a
 * response still sending it, and is large enough;
 * else new memory with room to grow. One body per format is kept, not two: at 1,000 nodes a body is
 * 21 MB. Writing into memory already touched also spares a fresh buffer's page faults at every
 * assembly (measured 80-300 ms for 20 MB on a VM).
 */
function bufferFor(current: Rendition | undefined, size: number): Buffer {
  const plain = current?.handedOut || current?.lent ? undefined : current?.plain;
  if (plain && plain.buffer.byteLength - plain.byteOffset >= size) return Buffer.from(plain.buffer, plain.byteOffset, size);
  return Buffer.allocUnsafeSlow(Math.ceil(size * BODY_HEADROOM)).subarray(0, size);
}

function bodyOf(rendition: Rendition): Buffer {
  if (rendition.plain) return rendition.plain;
  rendition.gzipped ??= gzipMember([rendition.deflated!]);
  return rendition.gzipped;
}

function renditionKey(format: ExpositionFormat, gzip: boolean): RenditionKey {
  return `${format}/${gzip ? 'gzip' : 'plain'}`;
}

/** Each family's header, then its lines in every slice; a hundred thousand pieces at 1,000 nodes. */
function forEachPiece(
  lines: readonly FamilyLines[],
  format: ExpositionFormat,
  piece: (source: Buffer, start: number, end: number) => void,
): void {
  for (const { name, family, slices } of lines) {
    const header = family.headers[format];
    piece(header, 0, header.length);
    for (const slice of slices) {
      const index = slice.names.indexOf(name);
      piece(slice.buffer, index === 0 ? 0 : slice.ends[index - 1], slice.ends[index]);
    }
  }
}
