import type { MetricDesc, Sample } from './metric-desc.js';
import { ownedBuffer } from './owned-buffer.js';

export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
export const OPENMETRICS_TEXT = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

export type ExpositionFormat = 'text' | 'openmetrics';

/** Rendered sample lines of one slice, per family, encoded once (the lines are identical in both formats). */
export type RenderedFamilies = Map<string, Buffer>;

export function renderSamples(samples: readonly Sample[]): RenderedFamilies {
  const lines = new Map<string, string[]>();
  for (const sample of samples) {
    const line = `${sample.name}${renderLabels(sample.labels)} ${formatValue(sample.value)}\n`;
    const family = lines.get(sample.name);
    if (family) family.push(line);
    else lines.set(sample.name, [line]);
  }
  // One owned buffer per slice, viewed per family: see owned-buffer.ts for why not Buffer.from.
  const texts = [...lines].map(([name, family]) => [name, family.join('')] as const);
  const buffer = ownedBuffer(texts.map(([, text]) => text).join(''));
  let offset = 0;
  return new Map(
    texts.map(([name, text]) => {
      const length = Buffer.byteLength(text);
      offset += length;
      return [name, buffer.subarray(offset - length, offset)];
    }),
  );
}

/** Joins the slices' lines under one HELP/TYPE header per family, in catalogue order. */
export function assemble(descs: readonly MetricDesc[], slices: Iterable<RenderedFamilies>, format: ExpositionFormat): Buffer {
  const sliceList = [...slices];
  const parts: Buffer[] = [];
  for (const desc of descs) {
    const lines = sliceList.flatMap((slice) => slice.get(desc.name) ?? []);
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
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  return `{${keys.map((key) => `${key}="${escapeLabelValue(labels[key])}"`).join(',')}}`;
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
