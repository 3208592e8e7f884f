import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Each member of a gzip stream, decoded alone and checked as a strict decoder checks it: a 10-byte
 * header without optional fields, raw deflate ending in a final block, then the CRC-32 and length
 * of what it decoded to. A client that reads one member only (curl 7.88, Chromium) sees the first.
 */
export function gzipMembers(gzipped: Buffer): Buffer[] {
  const members: Buffer[] = [];
  for (let offset = 0; offset < gzipped.length; ) {
    const header = gzipped.subarray(offset, offset + 10);
    if (header[0] !== 0x1f || header[1] !== 0x8b || header[2] !== 8 || header[3] !== 0) {
      throw new Error(`no plain gzip header at byte ${offset}: ${header.toString('hex')}`);
    }
    const { buffer, engine } = inflateRawSync(gzipped.subarray(offset + 10), { info: true }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    const trailer = offset + 10 + engine.bytesWritten;
    if (trailer + 8 > gzipped.length) throw new Error(`the member at byte ${offset} has no trailer`);
    if (gzipped.readUInt32LE(trailer) !== crc32(buffer)) throw new Error(`the member at byte ${offset} has a wrong CRC-32`);
    if (gzipped.readUInt32LE(trailer + 4) !== buffer.length % 2 ** 32) throw new Error(`the member at byte ${offset} has a wrong length`);
    members.push(buffer);
    offset = trailer + 8;
  }
  return members;
}
