import type { MetricDesc, Sample } from './metric-desc.js';

export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
export const OPENMETRICS_TEXT = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

export type ExpositionFormat = 'text' | 'openmetrics';

/** Rendered sample lines of one slice, per family, in both formats (the lines are identical). */
export type RenderedFamilies = Map<string, string>;

export function renderSamples(samples: readonly Sample[]): RenderedFamilies {
  const families: RenderedFamilies = new Map();
  for (const sample of samples) {
    const line = `${sample.name}${renderLabels(sample.labels)} ${formatValue(sample.value)}\n`;
    families.set(sample.name, (families.get(sample.name) ?? '') + line);
  }
  return families;
}

/** Joins the slices' lines under one HELP/TYPE header per family, in catalogue order. */
export function assemble(
  descs: readonly MetricDesc[],
  slices: Iterable<RenderedFamilies>,
  format: ExpositionFormat,
): string {
  const sliceList = [...slices];
  const parts: string[] = [];
  for (const desc of descs) {
    const lines = sliceList.map((slice) => slice.get(desc.name) ?? '').join('');
    if (lines === '') continue;
    parts.push(familyHeader(desc, format), lines);
  }
  return parts.join('');
}

function familyHeader(desc: MetricDesc, format: ExpositionFormat): string {
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
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}
