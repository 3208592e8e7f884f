/**
 * A buffer that owns its memory. Buffer.from and Buffer.concat carve small buffers out of a shared
 * pool slab (64 KiB on Node 24), and a buffer kept for minutes pins its whole slab: the rendered
 * slices of a large fleet, kept while runs discard their neighbours, held ~150 MB of mostly
 * dead slabs at 1,000 nodes. Rendered text that is kept is therefore allocated exactly sized.
 */
export function ownedBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}
