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
