import type { MetricDesc, Sample } from './metric-desc.js';
import { ownedBuffer } from './owned-buffer.js';

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

export function renderSamples(samples: readonly Sample[]): RenderedSlice {
  const lines = new Map<string, string>();
  for (const sample of samples) {
    const line = `${sample.name}${renderLabels(sample.labels)} ${formatValue(sample.value)}\n`;
    lines.set(sample.name, (lines.get(sample.name) ?? '') + line);
  }
  let text = '';
  for (const family of lines.values()) text += family;
  // See owned-buffer.ts for why not Buffer.from.
  const buffer = ownedBuffer(text);
  const ascii = buffer.length === text.length;
  const ends: number[] = [];
  let end = 0;
  for (const family of lines.values()) ends.push((end += ascii ? family.length : Buffer.byteLength(family)));
  return { buffer, names: [...lines.keys()], ends };
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
