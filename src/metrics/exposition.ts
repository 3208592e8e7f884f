import type { MetricDesc, Sample } from './metric-desc.js';
import { ownedCopy } from './owned-buffer.js';

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
 * itself when the lines are the same, byte for byte and family for family.
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
  const ends: number[] = [];
  let length = 0;
  for (const group of groups) {
    for (const sample of group) {
      const line = `${sample.name}${renderLabels(sample.labels)} ${formatValue(sample.value)}\n`;
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      if (length + 3 * line.length > scratch.length) grow(length, length + 3 * line.length);
      length += scratch.write(line, length);
    }
    ends.push(length);
  }
  const lines = scratch.subarray(0, length);
  if (scratch.length > MAX_KEPT_SCRATCH) scratch = Buffer.allocUnsafeSlow(MIN_SCRATCH);
  if (previous && sameRanges(previous, names, ends) && previous.buffer.equals(lines)) return previous;
  return { buffer: ownedCopy(lines), names, ends };
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

function renderLabels(labels: Readonly<Record<string, string>>): string {
  let text = '';
  for (const key of Object.keys(labels)) text += `${text ? ',' : '{'}${key}="${escapeLabelValue(labels[key])}"`;
  return text && `${text}}`;
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
