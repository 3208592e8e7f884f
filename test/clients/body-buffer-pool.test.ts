import { describe, expect, it } from 'vitest';
import { BodyBufferPool, MAX_KEPT_BYTES, MAX_POOLED_BYTES } from '../../src/clients/body-buffer-pool.js';

const MiB = 1024 * 1024;
const CAP = 64 * MiB;
const detached = (buffer: Buffer) => (buffer.buffer as ArrayBuffer).detached;

describe('BodyBufferPool', () => {
  it("gives a body's buffer to the next body of its size, not new memory", () => {
    const pool = new BodyBufferPool();
    const peers = pool.take(600_000, CAP);
    expect(peers.length).toBe(MiB);
    pool.give(peers);
    expect(pool.kept).toBe(MiB);
    const next = pool.take(700_000, CAP);
    expect(next).toBe(peers);
    expect(detached(next)).toBe(false);
    expect(pool.kept).toBe(0);
  });

  it('hands small bodies, bodies past its largest size and bodies at the cap back to the system', () => {
    const pool = new BodyBufferPool();
    const small = pool.take(2_000, CAP);
    const huge = pool.take(MAX_POOLED_BYTES + 1, CAP);
    const capped = pool.take(600_000, 700_000);
    expect([small.length, huge.length, capped.length]).toEqual([2_000, MAX_POOLED_BYTES + 1, 600_000]);
    for (const buffer of [small, huge, capped]) pool.give(buffer);
    expect([small, huge, capped].map(detached)).toEqual([true, true, true]);
    expect(pool.kept).toBe(0);
  });

  it('keeps at most MAX_KEPT_BYTES and frees what it does not keep', () => {
    const pool = new BodyBufferPool();
    const count = MAX_KEPT_BYTES / MiB + 1;
    const buffers = Array.from({ length: count }, () => pool.take(MiB, CAP));
    for (const buffer of buffers) pool.give(buffer);
    expect(pool.kept).toBe(MAX_KEPT_BYTES);
    expect(buffers.filter(detached)).toHaveLength(1);
  });
});
