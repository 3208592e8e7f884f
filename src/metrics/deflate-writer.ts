import { deflatePart, EMPTY_PART, joinParts, type DeflatePart } from './gzip-stream.js';

/** Input per deflate part: large enough that the parts compress as well as one stream would. */
export const PART_INPUT_BYTES = 1 << 20;

/**
 * Deflates pieces of a body as they come, without the body ever existing whole: the pieces are copied
 * into a 1 MiB staging buffer, and each time it fills it becomes one deflate part (see gzip-stream.ts).
 * At 1,000 nodes this spares a 21 MB assembled body per scrape format. Synchronous on purpose: the
 * pieces are live slices that a collector run may replace, and one uninterrupted pass (about 40 ms
 * for 21 MB, copies included) is what keeps the body consistent.
 */
export class DeflateWriter {
  private readonly staging = Buffer.allocUnsafeSlow(PART_INPUT_BYTES);
  private filled = 0;
  private readonly parts: DeflatePart[] = [];

  write(source: Buffer, start: number, end: number): void {
    while (start < end) {
      if (this.filled === this.staging.length) this.closePart();
      const copied = source.copy(this.staging, this.filled, start, Math.min(end, start + this.staging.length - this.filled));
      this.filled += copied;
      start += copied;
    }
  }

  /** What was written since the last end(), as one part. The staging buffer is kept for the next body. */
  end(): DeflatePart {
    if (this.filled > 0) this.closePart();
    const part = this.parts.length > 0 ? joinParts(this.parts) : EMPTY_PART;
    this.parts.length = 0;
    return part;
  }

  private closePart(): void {
    this.parts.push(deflatePart(this.staging.subarray(0, this.filled)));
    this.filled = 0;
  }
}
