import { releaseOwned } from '../runtime/owned-buffer.js';

/** The smallest buffer kept: a chunked body's first (body-bytes.ts). Smaller ones come from glibc's heap. */
export const MIN_POOLED_BYTES = 64 * 1024;
/** The largest kept: an answer of 1,800 peers takes 1 MiB; an attack's growing buffer is never kept. */
export const MAX_POOLED_BYTES = 4 * 1024 * 1024;
/** All kept buffers together, at most: what the bodies read at once at 1,000 nodes take. */
export const MAX_KEPT_BYTES = 8 * 1024 * 1024;

/**
 * Buffers for response bodies of 64 KiB and more, kept for the next body of their size (a power of
 * two). Under the daemon's glibc settings (a fixed 128 KiB mmap threshold, the heap trimmed past
 * 64 KiB: src/runtime/process-settings.ts) each new large buffer was a mapping of its own, and
 * every page of it faulted as the body was copied in: 1.9 ms for a 600 KB peers answer on the
 * 2-core VM, against 7 µs for a buffer written before. A kept buffer's pages are resident already.
 * Holds at most MAX_KEPT_BYTES; a buffer it does not keep is handed back at once.
 */
export class BodyBufferPool {
  private readonly free = new Map<number, Buffer[]>();
  private keptBytes = 0;

  /** A buffer of at least `bytes` and at most `maxBytes` (the response cap); its contents are garbage. */
  take(bytes: number, maxBytes: number): Buffer {
    const size = pooledSize(bytes);
    if (size === undefined || size > maxBytes) return Buffer.allocUnsafeSlow(bytes);
    const kept = this.free.get(size)?.pop();
    if (!kept) return Buffer.allocUnsafeSlow(size);
    this.keptBytes -= size;
    return kept;
  }

  /** A buffer taken here that nothing reads any more: kept for the next body, or its memory handed back. */
  give(buffer: Buffer): void {
    const size = buffer.length;
    if (size === 0) return;
    if (pooledSize(size) !== size || this.keptBytes + size > MAX_KEPT_BYTES) {
      releaseOwned(buffer);
      return;
    }
    const list = this.free.get(size);
    if (list) list.push(buffer);
    else this.free.set(size, [buffer]);
    this.keptBytes += size;
  }

  /** Bytes kept for the next bodies. */
  get kept(): number {
    return this.keptBytes;
  }
}

/** The pool's size for a body of `bytes`: the power of two at or above it, or none outside the pool's sizes. */
function pooledSize(bytes: number): number | undefined {
  if (bytes < MIN_POOLED_BYTES || bytes > MAX_POOLED_BYTES) return undefined;
  return 2 ** Math.ceil(Math.log2(bytes));
}
