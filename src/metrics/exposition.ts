import type { Labels, MetricDesc, Sample } from './metric-desc.js';
import type { SeriesWriter } from './line-sink.js';
import { integerEndAt, isWrittenAsInteger, writeInteger } from './integer-text.js';
import { fractionEndAt, MAX_FRACTION_BYTES, UNDECIDED, writeFraction } from './decimal-text.js';
import { ownedCopy } from '../runtime/owned-buffer.js';
import { sharedNameList } from './shared-name-lists.js';

export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
export const OPENMETRICS_TEXT = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

export type ExpositionFormat = 'text' | 'openmetrics';

/**
 * One slice's sample lines (identical in both formats), encoded once into a buffer of its own and
 * grouped by family: the lines of `names[i]` end at byte `ends[i]`. A record per slice rather than a
 * buffer view per family: a large fleet keeps tens of thousands of slices.
 */
export interface RenderedSlice {
  readonly buffer: Buffer;
  readonly names: readonly string[];
  readonly ends: readonly number[];
}

/**
 * Lines are written into this scratch buffer first, and copied into a buffer of the slice's own only
 * when they differ from the previous rendering: most runs of a fleet leave their slice as it was,
 * and they then allocate no buffer nor joined text at all. A rendering past MAX_KEPT_SCRATCH gets a
 * scratch of its own size that is dropped after it.
 */
const MIN_SCRATCH = 64 * 1024;
const MAX_KEPT_SCRATCH = 1024 * 1024;
let scratch = Buffer.allocUnsafeSlow(MIN_SCRATCH);

/**
 * Renders samples grouped by family, in the order each family first appears. Returns `previous`
 * itself when the lines are the same, byte for byte and family for family. The lines are checked
 * against `previous`'s bytes first, without being built: the lines that match up to the first that
 * does not are copied from `previous`. Past it, each line is still copied when it renders to the
 * bytes of the line in its place in `previous` (same family, same position), and only the others
 * are written (most runs of a fleet change nothing, or a value or two: a run's duration and time in
 * its collector's status slice, a few of a target's request counts).
 */
export function renderSamples(samples: readonly Sample[], previous?: RenderedSlice): RenderedSlice {
  const names: string[] = [];
  const groups: Sample[][] = [];
  const groupOf = new Map<string, Sample[]>();
  for (const sample of samples) {
    let group = groupOf.get(sample.name);
    if (!group) {
      groupOf.set(sample.name, (group = []));
      names.push(sample.name);
      groups.push(group);
    }
    group.push(sample);
  }
  const same = previous ? sameUpTo(previous, names, groups) : NOTHING_SAME;
  if (same === ALL_SAME) return previous!;
  if (same.bytes > scratch.length) grow(0, same.bytes);
  if (same.bytes > 0) previous!.buffer.copy(scratch, 0, 0, same.bytes);
  // Sized exactly, not grown by push: a kept slice's ends stay for minutes, and grown arrays carried
  // half again their length in spare capacity.
  const ends = new Array<number>(groups.length);
  for (let index = 0; index < same.group; index++) ends[index] = previous!.ends[index];
  let length = same.bytes;
  for (let index = same.group; index < groups.length; index++) {
    const group = groups[index];
    // The family's lines in `previous`, when it held the family in this place: each line is
    // compared with the one in its place there.
    const old = previous?.names[index] === names[index] ? previous : undefined;
    let oldAt = index === same.group ? same.bytes : (old?.ends[index - 1] ?? 0);
    const oldEnd = old?.ends[index] ?? 0;
    for (let sample = index === same.group ? same.sample : 0; sample < group.length; sample++) {
      const oldLineEnd = oldAt < oldEnd ? lineEndAt(old!.buffer, oldAt, group[sample]) : -1;
      if (oldLineEnd >= 0) {
        if (length + oldLineEnd - oldAt > scratch.length) grow(length, length + oldLineEnd - oldAt);
        length += old!.buffer.copy(scratch, length, oldAt, oldLineEnd);
        oldAt = oldLineEnd;
        continue;
      }
      const { name, labels, value } = group[sample];
      length = writeLine(name, labels, value, length);
      if (oldAt < oldEnd) oldAt = old!.buffer.indexOf(NEWLINE, oldAt) + 1;
    }
    ends[index] = length;
  }
  return finished(previous, names, ends, length);
}

/**
 * Renders a writer's series (see line-sink.ts) as they come, each family's together, into a slice:
 * nothing is compared line by line, for such a slice is set when its values moved. Returns
 * `previous` itself when the bytes are the same.
 */
export function renderLines(write: SeriesWriter, previous?: RenderedSlice): RenderedSlice {
  const names: string[] = [];
  const ends: number[] = [];
  let length = 0;
  write({
    line(name, labels, value) {
      if (names.at(-1) !== name) {
        if (names.includes(name)) throw new Error(`${name}: a writer gave this family's series apart`);
        if (names.length > 0) ends.push(length);
        names.push(name);
      }
      length = writeLine(name, labels, value, length);
    },
  });
  if (names.length > 0) ends.push(length);
  // Sized exactly (see renderSamples).
  return finished(previous, names, ends.slice(), length);
}

/** The scratch's first `length` bytes as a slice of `names` ending at `ends`: `previous` itself when it holds the same. */
function finished(previous: RenderedSlice | undefined, names: readonly string[], ends: number[], length: number): RenderedSlice {
  const lines = scratch.subarray(0, length);
  if (scratch.length > MAX_KEPT_SCRATCH) scratch = Buffer.allocUnsafeSlow(MIN_SCRATCH);
  if (previous && sameRanges(previous, names, ends) && previous.buffer.equals(lines)) return previous;
  return { buffer: ownedCopy(lines), names: sharedNameList(names, previous?.names), ends };
}

/**
 * Writes a sample's line into the scratch at `at`, piece by piece, and returns where it ends: a line
 * joined into one string first was a string per piece and the line's own, flattened again to be
 * written, for each of the thousands of lines a fleet's runs and scrapes write a second.
 */
function writeLine(name: string, labels: Labels, value: number, at: number): number {
  at = writeText(name, at);
  let first = true;
  // Own keys only, in Object.keys' order, as lineEndAt reads them back (without Object.keys' array).
  for (const key in labels) {
    if (!Object.hasOwn(labels, key)) continue;
    at = writeByte(first ? OPEN_BRACE : COMMA, at);
    first = false;
    at = writeText(key, at);
    at = writeByte(EQUALS, at);
    at = writeByte(QUOTE, at);
    at = writeLabelValue(labels[key], at);
    at = writeByte(QUOTE, at);
  }
  if (!first) at = writeByte(CLOSE_BRACE, at);
  at = writeByte(SPACE, at);
  at = writeValue(value, at);
  return writeByte(NEWLINE, at);
}

function writeValue(value: number, at: number): number {
  if (at + MAX_FRACTION_BYTES > scratch.length) grow(at, at + MAX_FRACTION_BYTES);
  if (isWrittenAsInteger(value)) return writeInteger(scratch, at, value);
  const end = writeFraction(scratch, at, value);
  return end >= 0 ? end : writeText(formatValue(value), at);
}

function writeByte(byte: number, at: number): number {
  if (at >= scratch.length) grow(at, at + 1);
  scratch[at] = byte;
  return at + 1;
}

/**
 * ASCII text is copied a character at a time: names and label values are tens of characters, and a
 * native write cost more per piece than the piece itself. Other text is written as UTF-8.
 */
function writeText(text: string, at: number): number {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (at + 3 * text.length > scratch.length) grow(at, at + 3 * text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) return at + scratch.write(text, at);
    scratch[at + index] = code;
  }
  return at + text.length;
}

/** A label value, escaped as it is written (see writeText). */
function writeLabelValue(value: string, at: number): number {
  // An escaped character takes 2 bytes, and UTF-8 at most 3 per UTF-16 unit.
  if (at + 3 * value.length > scratch.length) grow(at, at + 3 * value.length);
  const start = at;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 0x80) return start + scratch.write(escapeLabelValue(value), start);
    if (code === BACKSLASH || code === QUOTE || code === NEWLINE) {
      scratch[at++] = BACKSLASH;
      scratch[at++] = code === NEWLINE ? LETTER_N : code;
    } else scratch[at++] = code;
  }
  return at;
}

/** How far a rendering holds the same lines as before: up to `sample` of `group`, which start at `bytes`. */
interface SameLines {
  readonly group: number;
  readonly sample: number;
  readonly bytes: number;
}

const NOTHING_SAME: SameLines = { group: 0, sample: 0, bytes: 0 };
const ALL_SAME: SameLines = { group: -1, sample: -1, bytes: -1 };

/** How far `groups` (of families `names`) render to `slice`'s bytes; ALL_SAME when to all of them, family ranges included. */
function sameUpTo(slice: RenderedSlice, names: readonly string[], groups: readonly Sample[][]): SameLines {
  let at = 0;
  for (let group = 0; group < groups.length; group++) {
    if (slice.names[group] !== names[group]) return { group, sample: 0, bytes: at };
    const samples = groups[group];
    for (let sample = 0; sample < samples.length; sample++) {
      const end = lineEndAt(slice.buffer, at, samples[sample]);
      if (end < 0) return { group, sample, bytes: at };
      at = end;
    }
    // Fewer lines of this family than before: it ends here.
    if (at !== slice.ends[group]) return { group, sample: samples.length, bytes: at };
  }
  return names.length === slice.names.length && at === slice.buffer.length ? ALL_SAME : { group: groups.length, sample: 0, bytes: at };
}

/**
 * Where the line `sample` renders to ends, when `buffer` holds it at `at`; -1 when it does not (or
 * holds text other than ASCII there, which is rendered to be compared).
 */
function lineEndAt(buffer: Buffer, at: number, sample: Sample): number {
  at = textEndAt(buffer, at, sample.name);
  let first = true;
  // Own keys come first, in the order writeLine writes them (Object.keys', without its array); an
  // inherited one, which it does not write, makes the line one to render.
  for (const key in sample.labels) {
    if (!Object.hasOwn(sample.labels, key)) return -1;
    if (at < 0 || buffer[at] !== (first ? OPEN_BRACE : COMMA)) return -1;
    first = false;
    at = textEndAt(buffer, at + 1, key);
    if (at < 0 || buffer[at] !== EQUALS || buffer[at + 1] !== QUOTE) return -1;
    at = labelValueEndAt(buffer, at + 2, sample.labels[key]);
    if (at < 0 || buffer[at] !== QUOTE) return -1;
    at += 1;
  }
  if (!first) {
    if (buffer[at] !== CLOSE_BRACE) return -1;
    at += 1;
  }
  if (at < 0 || buffer[at] !== SPACE) return -1;
  at = isWrittenAsInteger(sample.value) ? integerEndAt(buffer, at + 1, sample.value) : valueEndAt(buffer, at + 1, sample.value);
  if (at < 0 || buffer[at] !== NEWLINE) return -1;
  return at + 1;
}

/** As lineEndAt, for a value not written as an integer: its text is made only when it cannot be read back exactly. */
function valueEndAt(buffer: Buffer, at: number, value: number): number {
  const end = fractionEndAt(buffer, at, value);
  return end === UNDECIDED ? textEndAt(buffer, at, formatValue(value)) : end;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const SPACE = 0x20;
const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const LETTER_N = 0x6e;

function textEndAt(buffer: Buffer, at: number, text: string): number {
  if (at < 0 || at + text.length > buffer.length) return -1;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Past ASCII a character and its UTF-8 bytes differ: "Ã©" would match the bytes of "é".
    if (code >= 0x80 || buffer[at + index] !== code) return -1;
  }
  return at + text.length;
}

/** As textEndAt, for a label value as escapeLabelValue writes it. */
function labelValueEndAt(buffer: Buffer, at: number, value: string): number {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 0x80) return -1;
    const escaped = code === BACKSLASH ? BACKSLASH : code === NEWLINE ? LETTER_N : code === QUOTE ? QUOTE : -1;
    if (escaped >= 0) {
      if (buffer[at] !== BACKSLASH || buffer[at + 1] !== escaped) return -1;
      at += 2;
    } else {
      if (buffer[at] !== code) return -1;
      at += 1;
    }
  }
  return at;
}

/** A larger scratch holding the `used` bytes written so far. */
function grow(used: number, needed: number): void {
  const larger = Buffer.allocUnsafeSlow(Math.max(needed, 2 * scratch.length));
  scratch.copy(larger, 0, 0, used);
  scratch = larger;
}

function sameRanges(slice: RenderedSlice, names: readonly string[], ends: readonly number[]): boolean {
  return (
    slice.names.length === names.length && slice.names.every((name, index) => names[index] === name && slice.ends[index] === ends[index])
  );
}

/** Where a family's lines sit in a rendered slice's buffer; undefined when the slice has none. */
export function rangeOf(slice: RenderedSlice, name: string): { start: number; end: number } | undefined {
  const index = slice.names.indexOf(name);
  if (index < 0) return undefined;
  return { start: index === 0 ? 0 : slice.ends[index - 1], end: slice.ends[index] };
}

/** Joins the slices' lines under one HELP/TYPE header per family, in catalogue order. */
export function assemble(descs: readonly MetricDesc[], slices: Iterable<RenderedSlice>, format: ExpositionFormat): Buffer {
  const sliceList = [...slices];
  const parts: Buffer[] = [];
  for (const desc of descs) {
    const lines = sliceList.flatMap((slice) => {
      const range = rangeOf(slice, desc.name);
      return range ? [slice.buffer.subarray(range.start, range.end)] : [];
    });
    if (lines.length === 0) continue;
    parts.push(Buffer.from(familyHeader(desc, format)), ...lines);
  }
  return Buffer.concat(parts);
}

export function familyHeader(desc: MetricDesc, format: ExpositionFormat): string {
  // OpenMetrics names a counter family without its _total suffix.
  const family = format === 'openmetrics' && desc.type === 'counter' ? desc.name.replace(/_total$/, '') : desc.name;
  return `# HELP ${family} ${escapeHelp(desc.help)}\n# TYPE ${family} ${desc.type}\n`;
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function escapeLabelValue(value: string): string {
  if (!/[\\\n"]/.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}
