/** Scrapes closer together than this are scrapers that came at once, not a cadence. */
const MIN_INTERVAL_MS = 1_000;
/** A gap longer than this is a scraper that left and came back: what it did before says nothing. */
const MAX_INTERVAL_MS = 10 * 60_000;
/** Two intervals this close (a share of the longer) are the same interval with jitter. */
const SAME_INTERVAL_SHARE = 0.1;
/** Enough to see two scrapers at different phases: their intervals alternate. */
const KEPT_INTERVALS = 4;

/**
 * When the next scrape of a body is expected, from when the last ones came: Prometheus scrapes at a
 * fixed interval, so a body can be assembled shortly before the scrape instead of inside it. Only a
 * cadence seen twice is trusted: a body prepared for a scrape that does not come is work wasted.
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

  /** Whether a scrape came again, from 1 s to 10 min after the one before. */
  repeated(): boolean {
    return this.intervals.length > 0;
  }

  /**
   * The last scrape plus the last interval when the one before was the same (one scraper); plus the
   * one before when the intervals alternate (two scrapers at different phases, as Prometheus
   * replicas); undefined when the scrapes keep no cadence.
   */
  nextMs(): number | undefined {
    const [a, b, c, d] = this.intervals.slice(-KEPT_INTERVALS).reverse();
    if (this.lastMs === undefined || a === undefined || b === undefined) return undefined;
    if (sameInterval(a, b)) return this.lastMs + a;
    if (c !== undefined && d !== undefined && sameInterval(a, c) && sameInterval(b, d)) return this.lastMs + b;
    return undefined;
  }
}

function sameInterval(a: number, b: number): boolean {
  return Math.abs(a - b) <= SAME_INTERVAL_SHARE * Math.max(a, b);
}
