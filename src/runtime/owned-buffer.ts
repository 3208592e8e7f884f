/**
 * A buffer that owns its memory. Buffer.from and Buffer.concat carve small buffers out of a shared
 * pool slab (64 KiB on Node 24), and a buffer kept for minutes pins its whole slab: the rendered
 * slices of a large fleet, kept while runs discard their neighbours, held ~150 MB of mostly
 * dead slabs at 1,000 nodes. Rendered lines that are kept are therefore copied into a buffer of their own, exactly sized.
 */
export function ownedCopy(bytes: Buffer): Buffer {
  const buffer = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(buffer);
  return buffer;
}

/**
 * Hands an owned buffer's memory back now rather than at V8's next full collection: a buffer kept
 * for seconds sits in the old generation, and what it held waited there for a full collection (a
 * replaced slice's lines, a decoded response body: clients/body-bytes.ts). Only for a buffer that
 * is its own ArrayBuffer (allocUnsafeSlow) and that nothing reads any more: moving its contents
 * into an empty buffer detaches it.
 */
export function releaseOwned(buffer: Buffer): void {
  (buffer.buffer as ArrayBuffer).transfer(0);
}
