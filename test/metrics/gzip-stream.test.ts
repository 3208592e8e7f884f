import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, deflatePart, EMPTY_PART, gzipMember, joinParts } from '../../src/metrics/gzip-stream.js';
import { gzipMembers } from '../helpers/gzip-members.js';

describe('one gzip member of deflate parts', () => {
  it("combines two CRC-32s into the CRC-32 of both, as zlib's crc32_combine", () => {
    for (const [lengthA, lengthB] of [
      [0, 0],
      [0, 7],
      [7, 0],
      [1, 1],
      [1000, 3],
      [65_536, 1_048_576],
      [5, 3_000_001],
    ]) {
      const a = randomBytes(lengthA);
      const b = randomBytes(lengthB);
      expect(crc32Combine(crc32(a), crc32(b), lengthB)).toBe(crc32(Buffer.concat([a, b])));
    }
  });

  it('decodes parts compressed apart, reused and empty, as one member holding all of them in order', () => {
    const texts = ['# HELP a x\n', 'a{target="n"} 1\n'.repeat(50_000), '', 'b 2\n'.repeat(3), randomBytes(70_000).toString('base64')];
    const parts = texts.map((text) => deflatePart(Buffer.from(text)));
    // The same part twice, as a group reused by the next body is.
    const body = gzipMember([...parts, parts[1], EMPTY_PART]);
    const members = gzipMembers(body);
    expect(members.length).toBe(1);
    expect(members[0].toString()).toBe(texts.join('') + texts[1]);
    expect(gunzipSync(body).toString()).toBe(members[0].toString());
    const joined = gzipMembers(gzipMember([joinParts(parts.slice(0, 2)), joinParts(parts.slice(2))]));
    expect(joined.map((member) => member.toString())).toEqual([texts.join('')]);
  });

  it('frames no part as a valid empty member', () => {
    expect(gzipMembers(gzipMember([]))).toEqual([Buffer.alloc(0)]);
    expect(gunzipSync(gzipMember([EMPTY_PART])).length).toBe(0);
  });
});
