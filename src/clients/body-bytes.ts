import { BodyBufferPool } from './body-buffer-pool.js';

/** Bodies of unknown length (chunked, as AvalancheGo sends large answers) start with room for this. */
const INITIAL_BYTES = 64 * 1024;
const EMPTY = Buffer.alloc(0);
/** One for the process, as glibc's heap is: every client's bodies draw on it. */
const buffers = new BodyBufferPool();

/**
 * A response body's bytes, copied as each socket buffer arrives into one buffer of its own, then
 * decoded once. The socket buffers die young, as they did decoded one by one: kept until the body
 * ends, they would fragment glibc's heap, which then keeps an endless-body attack's peak for good.
 * The body's own buffer is one allocation, sized from Content-Length when declared and doubled as
 * needed otherwise; from 64 KiB to 4 MiB it is kept for the next body of its size
 * (body-buffer-pool.ts), and past that (an attack's) it is a mapping of its own, handed back whole
 * when freed. Against chunks decoded one by one and joined, this holds one copy of a body being read
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
    this.buffer = buffers.take(declaredBytes > 0 ? declaredBytes : Math.min(INITIAL_BYTES, maxBytes), maxBytes);
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
   * Hands the bytes' memory back now rather than at V8's next full collection: to the pool for the
   * next body of its size, or to the system. A body takes many turns of the event loop to arrive,
   * so its buffer object usually reaches the old generation, and its memory waited there for a full
   * collection (docs/decisions.md#a-bodys-buffer-freed-once-decoded-arraybufferprototypetransfer0).
   */
  release(): void {
    buffers.give(this.buffer);
    this.buffer = EMPTY;
    this.length = 0;
  }

  private grow(atLeast: number): void {
    const larger = buffers.take(Math.max(atLeast, Math.min(2 * this.buffer.length, this.maxBytes)), this.maxBytes);
    this.buffer.copy(larger, 0, 0, this.length);
    buffers.give(this.buffer);
    this.buffer = larger;
  }
}
