/** The default of global.max_response_memory_bytes. */
export const DEFAULT_RESPONSE_MEMORY_BYTES = 128 * 1024 * 1024;
/** Bodies this large in flight at once are a burst (an attack, a broken upstream), not collection. */
export const BURST_BYTES = 32 * 1024 * 1024;
/** Bodies in flight below this are ordinary collection: the burst is over. */
export const QUIET_BYTES = 1024 * 1024;
/** Time after a burst ends before its memory is handed back. */
export const RELEASE_DELAY_MS = 2_000;

/**
 * One budget for every upstream body being read at once, on top of the per-response cap: hostile
 * or broken upstreams sending endless bodies to many concurrent requests would otherwise hold
 * max_response_bytes each. A request that would overdraw it fails at once instead of waiting.
 */
export class ResponseMemory {
  private limit = DEFAULT_RESPONSE_MEMORY_BYTES;
  private used = 0;
  private peakSinceRelease = 0;
  private releaseTimer?: NodeJS.Timeout;

  /** `collect` runs a full garbage collection; the default is V8's, when exposed (see releaseAfterBurst). */
  constructor(private readonly collect: (() => void) | undefined = (globalThis as { gc?: () => void }).gc) {}

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
    this.peakSinceRelease = Math.max(this.peakSinceRelease, this.used);
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    if (this.peakSinceRelease >= BURST_BYTES && this.used < QUIET_BYTES && !this.releaseTimer) this.releaseAfterBurst();
  }

  /**
   * The bodies of a burst are garbage once read, but V8 frees their memory only when it next
   * collects, and an idle daemon may not collect for minutes: RSS would stay at the burst's peak.
   * So RELEASE_DELAY_MS after a burst ends, one full collection hands the memory back (glibc
   * returns it to the system with deploy/memory.env's thresholds); ordinary bodies meanwhile do not
   * postpone it, and a sustained attack costs one collection per delay at most. This needs
   * --expose-gc, which deploy/memory.env sets; without it, the memory goes back at V8's next collection.
   */
  private releaseAfterBurst(): void {
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = undefined;
      // A new burst is under way: its end arms the release again.
      if (this.used >= QUIET_BYTES) return;
      this.peakSinceRelease = 0;
      this.collect?.();
    }, RELEASE_DELAY_MS);
    this.releaseTimer.unref();
  }
}

export const responseMemory = new ResponseMemory();
