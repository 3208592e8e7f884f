/** The default of global.max_response_memory_bytes. */
export const DEFAULT_RESPONSE_MEMORY_BYTES = 128 * 1024 * 1024;

/**
 * One budget for every upstream body being read at once, on top of the per-response cap: hostile
 * or broken upstreams sending endless bodies to many concurrent requests would otherwise hold
 * max_response_bytes each. A request that would overdraw it fails at once instead of waiting.
 */
class ResponseMemory {
  private limit = DEFAULT_RESPONSE_MEMORY_BYTES;
  private used = 0;

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
  }
}

export const responseMemory = new ResponseMemory();
