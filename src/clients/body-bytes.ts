import { releaseOwned } from '../runtime/owned-buffer.js';

/** Bodies of unknown length (chunked, as AvalancheGo sends large answers) start with room for this. */
const INITIAL_BYTES = 64 * 1024;

/**
 * A response body's bytes, copied as each socket buffer arrives into one buffer of its own, then
 * decoded once. The socket buffers die young, as they did decoded one by one: kept until the body
 * ends, they would fragment glibc's heap, which then keeps an endless-body attack's peak for good.
 * The body's own buffer is one allocation, sized from Content-Length when declared and doubled as
 * needed otherwise: above glibc's mmap threshold it is a mapping of its own, handed back whole when
 * freed. Against chunks decoded one by one and joined, this holds one copy of a body being read
 * instead of two (the decoded pieces and their join), which takes a third off an endless-body
 * attack's peak (docs/performance.md#endless-body-attack).
 */
export class BodyBytes {
  private buffer: Buffer;
  private length = 0;

  /** `maxBytes`: the response cap, which the caller enforces; the buffer never grows past it. */
  constructor(
    declaredBytes: number,
    private readonly maxBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(declaredBytes > 0 ? declaredBytes : Math.min(INITIAL_BYTES, maxBytes));
  }

  append(chunk: Buffer): void {
    if (this.length + chunk.length > this.buffer.length) this.grow(this.length + chunk.length);
    this.length += chunk.copy(this.buffer, this.length);
  }

  text(): string {
    return this.buffer.toString('utf8', 0, this.length);
  }

  /** The bytes read, without a copy: valid until release(), after which the view is empty. */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /**
   * Hands the bytes' memory back now rather than at V8's next full collection. A body takes many
   * turns of the event loop to arrive, so its buffer object usually reaches the old generation, and
   * its memory waited there for a full collection
   * (docs/decisions.md#a-bodys-buffer-freed-once-decoded-arraybufferprototypetransfer0). The buffer
   * is its own ArrayBuffer (allocUnsafeSlow), so detaching it touches nothing else.
   */
  release(): void {
    releaseOwned(this.buffer);
    this.length = 0;
  }

  private grow(atLeast: number): void {
    const larger = Buffer.allocUnsafeSlow(Math.max(atLeast, Math.min(2 * this.buffer.length, this.maxBytes)));
    this.buffer.copy(larger, 0, 0, this.length);
    releaseOwned(this.buffer);
    this.buffer = larger;
  }
}
