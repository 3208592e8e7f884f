import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ExpositionFormat } from '../metrics/exposition.js';
import { deflatePart, gzipMember, type DeflatePart } from '../metrics/gzip-stream.js';
import { PLAIN_BODY_IDLE_MS, type MetricsSnapshot } from '../metrics/snapshot.js';

/** Process and runtime metrics need no sub-second freshness; rendering them costs ~1 ms. */
const RUNTIME_REFRESH_MS = 1000;

/** The runtime metrics: plain, or a deflate part appended to the collected series' deflate stream. */
type Part = Buffer | DeflatePart;

interface CachedBody {
  readonly collected: DeflatePart;
  readonly runtime: DeflatePart;
  readonly body: Buffer;
  usedAtMs: number;
}

interface RuntimePart {
  readonly renderedAt: number;
  readonly part: Part;
}

/** A /metrics response body: its bytes in order, and what to call once it is sent or abandoned. */
export interface MetricsResponse {
  readonly chunks: readonly Buffer[];
  readonly length: number;
  /** Returns a plain body's memory to the snapshot (see MetricsSnapshot.lendPlain); `sent`: the response went out whole. */
  done(sent: boolean): void;
}

const nothingToReturn = () => undefined;

/**
 * The /metrics body: the snapshot's assembled collected series followed by prom-client's process
 * and runtime metrics. With gzip, the runtime part is deflated on its own and appended to the
 * collected series' deflate stream, under one gzip header: a single member, which every client reads
 * whole (curl and browsers read only the first of several). The joined gzip body is cached per
 * format, and rebuilt only when the snapshot re-assembles or the runtime part is a second old, so a
 * scrape normally sends a cached buffer, however many ask at once. A plain body is sent as the
 * snapshot's own buffer, lent for the response, then the runtime part: no 21 MB join at 1,000 nodes,
 * and scrapers that come at once share one buffer (docs/performance.md#scrape-static-snapshot).
 */
export class MetricsBody {
  private readonly registries = runtimeRegistries();
  private readonly cache = new Map<string, CachedBody>();
  private readonly runtimeParts = new Map<string, RuntimePart>();

  constructor(private readonly snapshot: MetricsSnapshot) {}

  async get(format: ExpositionFormat, gzip: boolean, nowMs = Date.now()): Promise<MetricsResponse> {
    const key = `${format}/${gzip}`;
    const runtime = await this.runtimePart(key, format, gzip, nowMs);
    if (Buffer.isBuffer(runtime)) {
      const { body, done } = this.snapshot.lendPlain(format);
      return { chunks: [body, runtime], length: body.length + runtime.length, done };
    }
    const body = this.gzipBody(key, this.snapshot.serveDeflated(format), runtime, nowMs);
    return { chunks: [body], length: body.length, done: nothingToReturn };
  }

  private gzipBody(key: string, collected: DeflatePart, runtime: DeflatePart, nowMs: number): Buffer {
    for (const [idleKey, idle] of this.cache) if (nowMs - idle.usedAtMs >= PLAIN_BODY_IDLE_MS) this.cache.delete(idleKey);
    const cached = this.cache.get(key);
    if (cached && cached.collected === collected && cached.runtime === runtime) {
      cached.usedAtMs = nowMs;
      return cached.body;
    }
    const body = gzipMember([collected, runtime]);
    this.cache.set(key, { collected, runtime, body, usedAtMs: nowMs });
    return body;
  }

  private async runtimePart(key: string, format: ExpositionFormat, gzip: boolean, nowMs: number): Promise<Part> {
    const runtime = this.runtimeParts.get(key);
    if (runtime && nowMs - runtime.renderedAt < RUNTIME_REFRESH_MS) return runtime.part;
    const text = Buffer.from(await this.runtimeText(format));
    const part = gzip ? deflatePart(text) : text;
    this.runtimeParts.set(key, { renderedAt: nowMs, part });
    return part;
  }

  private async runtimeText(format: ExpositionFormat): Promise<string> {
    const text = dropMisnamedGauges(await this.registries[format].metrics());
    // prom-client ends OpenMetrics with its own # EOF; the exposition must have exactly one, last.
    return format === 'openmetrics' ? `${text.replace(/# EOF\n?$/, '')}# EOF\n` : text;
  }
}

/**
 * prom-client also exports nodejs_active_{handles,requests,resources} as gauges named *_total, which
 * breaks the rule that only counters end in _total (promtool flags them). The same values are there
 * without the suffix, so these duplicates are dropped.
 */
function dropMisnamedGauges(text: string): string {
  return text
    .split(/(?=^# HELP )/m)
    .filter((family) => !/^# TYPE \S+_total gauge$/m.test(family))
    .join('');
}

function runtimeRegistries(): Record<ExpositionFormat, { metrics(): Promise<string> }> {
  const text = new Registry();
  const openmetrics = new Registry<typeof Registry.OPENMETRICS_CONTENT_TYPE>();
  openmetrics.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  collectDefaultMetrics({ register: text });
  collectDefaultMetrics({ register: openmetrics });
  return { text, openmetrics };
}
