import { lastResortCollection } from '../runtime/last-resort-collection.js';
import { systemClock, type Clock, type Timer } from '../schedule/clock.js';

/** The default of global.max_response_memory_bytes. */
export const DEFAULT_RESPONSE_MEMORY_BYTES = 128 * 1024 * 1024;
/** Bodies in flight below this are ordinary collection: the attack is over. */
export const QUIET_BYTES = 1024 * 1024;
/** Time after a burst ends before its memory is handed back. */
export const RELEASE_DELAY_MS = 2_000;

/**
 * One budget for every upstream body being read at once, on top of the per-response cap: hostile
 * or broken upstreams sending endless bodies to many concurrent requests would otherwise hold
 * max_response_bytes each. A request that would overdraw it fails at once instead of waiting. A
 * daemon owns one and shares it with every HTTP client it makes (collection, probes, receivers).
 */
export class ResponseMemory {
  private limit = DEFAULT_RESPONSE_MEMORY_BYTES;
  private used = 0;
  private refusedSinceRelease = false;
  private releaseTimer?: Timer;

  private readonly collect?: () => void;
  private readonly clock: Clock;

  /**
   * `collect` runs a full garbage collection; the default is V8's, when exposed (see
   * releaseAfterAttack). The release waits on `clock`.
   */
  constructor({ collect = lastResortCollection(), clock = systemClock }: { collect?: () => void; clock?: Clock } = {}) {
    this.collect = collect;
    this.clock = clock;
  }

  setLimit(bytes: number): void {
    this.limit = bytes;
  }

  get limitBytes(): number {
    return this.limit;
  }

  get usedBytes(): number {
    return this.used;
  }

  /** Reserves bytes; false (and nothing reserved) when the budget cannot hold them. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    if (this.refusedSinceRelease && this.used < QUIET_BYTES && !this.releaseTimer) this.releaseAfterAttack();
  }

  /** A body was refused for its size or for the budget: an attack or a broken upstream, never collection. */
  noteRefusal(): void {
    this.refusedSinceRelease = true;
  }

  /**
   * Refused bodies (up to the cap each, up to the budget together) are garbage at once, but V8
   * frees their memory only when it next collects, and an idle daemon may not collect for minutes:
   * RSS would stay at the attack's peak. So RELEASE_DELAY_MS after the bodies in flight fall back to
   * ordinary, one full collection hands the memory back. Ordinary bodies meanwhile do not postpone
   * it, and a sustained attack costs one collection per delay at most; a busy fleet that never has
   * a body refused never pays for one. This needs --expose-gc, which src/runtime/process-settings.ts sets;
   * without it, the memory goes back at V8's next collection.
   */
  private releaseAfterAttack(): void {
    this.releaseTimer = this.clock.setTimeout(() => {
      this.releaseTimer = undefined;
      // Still under way: the next body given back arms the release again.
      if (this.used >= QUIET_BYTES) return;
      this.refusedSinceRelease = false;
      this.collect?.();
    }, RELEASE_DELAY_MS);
    this.releaseTimer.unref();
  }
}
