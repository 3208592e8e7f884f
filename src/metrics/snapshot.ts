import { gzipSync } from 'node:zlib';
import type { MetricDesc, Sample } from './metric-desc.js';
import { assemble, renderSamples, type ExpositionFormat, type RenderedFamilies } from './exposition.js';

interface Slice {
  readonly samples: readonly Sample[];
  readonly rendered: RenderedFamilies;
}

interface Rendered {
  readonly body: Buffer;
  gzipped?: Buffer;
}

/**
 * The collected series, as slices replaced whole by each collector run. A slice is rendered to text
 * when it is set; the exposition is assembled from the rendered slices once per change, so a scrape
 * only copies a buffer.
 */
export class MetricsSnapshot {
  private readonly slices = new Map<string, Slice>();
  private readonly exposition = new Map<ExpositionFormat, Rendered>();
  private dirty = true;

  constructor(private readonly descs: readonly MetricDesc[]) {}

  /** Replaces one slice (e.g. "validator-1/health") whole; an empty list removes its series. */
  setSlice(key: string, samples: readonly Sample[]): void {
    if (samples.length === 0) this.slices.delete(key);
    else this.slices.set(key, { samples, rendered: renderSamples(samples) });
    this.dirty = true;
  }

  samples(): Sample[] {
    return [...this.slices.values()].flatMap((slice) => slice.samples);
  }

  /** Re-assembles the exposition after a change; called once per collection run, never per scrape. */
  render(): void {
    if (!this.dirty) return;
    const rendered = [...this.slices.values()].map((slice) => slice.rendered);
    for (const format of ['text', 'openmetrics'] as const) {
      this.exposition.set(format, { body: Buffer.from(assemble(this.descs, rendered, format)) });
    }
    this.dirty = false;
  }

  body(format: ExpositionFormat, gzip: boolean): Buffer {
    this.render();
    const rendered = this.exposition.get(format)!;
    if (!gzip) return rendered.body;
    rendered.gzipped ??= gzipSync(rendered.body);
    return rendered.gzipped;
  }
}
