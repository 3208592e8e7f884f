/** Scrapes closer together than this are scrapers that came at once, not a cadence. */
const MIN_INTERVAL_MS = 1_000;
/** A gap longer than this is a scraper that left and came back: what it did before says nothing. */
const MAX_INTERVAL_MS = 10 * 60_000;
/** Two Prometheus replicas at different phases give alternating intervals: the shortest of a few is the next. */
const KEPT_INTERVALS = 4;

/**
 * When the next scrape of a body is expected, from when the last ones came: Prometheus scrapes at a
 * fixed interval, so a body can be assembled shortly before the scrape instead of inside it.
 */
export class ScrapeCadence {
  private lastMs: number | undefined;
  private readonly intervals: number[] = [];

  scraped(nowMs: number): void {
    const intervalMs = nowMs - (this.lastMs ?? Number.NEGATIVE_INFINITY);
    // The first of scrapers that came at once stays the phase.
    if (intervalMs >= 0 && intervalMs < MIN_INTERVAL_MS) return;
    if (intervalMs > MAX_INTERVAL_MS || intervalMs < 0) this.intervals.length = 0;
    else this.intervals.push(intervalMs);
    if (this.intervals.length > KEPT_INTERVALS) this.intervals.shift();
    this.lastMs = nowMs;
  }

  /** The last scrape plus the shortest recent interval; undefined until two scrapes came at a cadence. */
  nextMs(): number | undefined {
    if (this.lastMs === undefined || this.intervals.length === 0) return undefined;
    return this.lastMs + Math.min(...this.intervals);
  }
}
