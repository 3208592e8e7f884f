export type MetricType = 'gauge' | 'counter';

/** One metric family: the public contract of a metric name (see docs/metrics.md). */
export interface MetricDesc {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly labels: readonly string[];
}

export type Labels = Readonly<Record<string, string>>;

/** Whether two label sets hold the same names and values (without allocating: it runs for every sample kept). */
export function sameLabels(a: Labels, b: Labels): boolean {
  if (a === b) return true;
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

export interface Sample {
  readonly name: string;
  readonly labels: Labels;
  readonly value: number;
}

export function gauge(name: string, help: string, labels: readonly string[]): MetricDesc {
  return { name, help, type: 'gauge', labels };
}

export function counter(name: string, help: string, labels: readonly string[]): MetricDesc {
  return { name, help, type: 'counter', labels };
}
