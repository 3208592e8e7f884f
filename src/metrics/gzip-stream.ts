import { constants, crc32, deflateRawSync } from 'node:zlib';

/** Scrapers care about latency more than ratio: level 1 is several times faster and still ~8x smaller. */
const GZIP_LEVEL = constants.Z_BEST_SPEED;

/**
 * Raw deflate blocks ending on a byte boundary with no final block (a full flush), with the CRC-32
 * and length of the bytes they decode to. Parts compressed apart follow one another in one deflate
 * stream: none refers back past its own start. So a body is one gzip member made of parts, and a
 * part that did not change is reused as it is.
 */
export interface DeflatePart {
  /** Its deflate bytes, in pieces: parts are joined by listing their pieces, and copied once, into the gzip body. */
  readonly chunks: readonly Buffer[];
  readonly crc: number;
  readonly length: number;
}

export const EMPTY_PART: DeflatePart = { chunks: [], crc: 0, length: 0 };

/** Magic, deflate, no flags, no time, no extra flags, OS unknown (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
/** A final fixed-Huffman block holding only its end code: ends the deflate stream. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

export function deflatePart(plain: Buffer): DeflatePart {
  if (plain.length === 0) return EMPTY_PART;
  return {
    chunks: [deflateRawSync(plain, { level: GZIP_LEVEL, finishFlush: constants.Z_FULL_FLUSH })],
    crc: crc32(plain),
    length: plain.length,
  };
}

/** The parts, in order, as one part: their bytes are not copied. */
export function joinParts(parts: readonly DeflatePart[]): DeflatePart {
  if (parts.length === 1) return parts[0];
  let crc = 0;
  let length = 0;
  for (const part of parts) {
    crc = crc32Combine(crc, part.crc, part.length);
    length += part.length;
  }
  return { chunks: parts.flatMap((part) => part.chunks), crc, length };
}

/** The parts, in order, as a single gzip member: what every decoder (curl, browsers, Go, zlib) reads whole. */
export function gzipMember(parts: readonly DeflatePart[]): Buffer {
  const whole = joinParts(parts);
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(whole.crc >>> 0, 0);
  // ISIZE is the length modulo 2^32 (RFC 1952).
  trailer.writeUInt32LE(whole.length % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, ...whole.chunks, FINAL_EMPTY_BLOCK, trailer]);
}

const CRC_POLYNOMIAL = 0xedb88320;

/** a(x) * b(x) modulo the CRC-32 polynomial, bit-reflected as the CRC is (zlib's multmodp). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let mask = 0x80000000; mask !== 0; mask >>>= 1) {
    if ((a & mask) !== 0) product ^= b;
    b = b & 1 ? (b >>> 1) ^ CRC_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X_TO_TWO_TO_THE = (() => {
  const table: number[] = [];
  let power = 0x40000000; // x^1
  for (let k = 0; k < 32; k++) {
    table.push(power);
    power = multiplyModP(power, power);
  }
  return table;
})();

/** x^(8 * bytes) modulo the polynomial. */
function shiftByBytes(bytes: number): number {
  let power = 0x80000000; // x^0
  let k = 3; // 8 = 2^3
  for (let n = bytes; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) power = multiplyModP(X_TO_TWO_TO_THE[k % 32], power);
  }
  return power;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(shiftByBytes(lengthB), crcA) ^ crcB) >>> 0;
}
