/**
 * Short ASCII strings read from answers' bytes, kept to be handed out again: the node ids, versions
 * and weights a fleet's nodes answer every minute are mostly the same strings, so a read finds
 * them here instead of allocating each anew (and the daemon keeps one copy of each). A table of
 * fixed size: each string in one of the two slots its hash picks (the older of the two giving
 * way). A slot's bytes are its string's length plus one (0: empty), then the string's bytes, in one
 * cache line: a look-up reads one line to compare, and the string only when it is there. At most
 * SLOTS strings of at most MAX_LENGTH bytes: 2 MB of bytes and about 2 MB of strings for the
 * process at most, for about 5,000 strings a fleet on one network reads by default (20,000 with a
 * network-wide validator set).
 */
const SLOT_BITS = 15;
const SLOTS = 1 << SLOT_BITS;
/** A slot's bytes: its length byte and at most MAX_LENGTH bytes, one cache line. */
const SLOT_BYTES = 64;
/** Node ids are 47 bytes. */
const MAX_LENGTH = 48;
const strings: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
const slots = new Uint8Array(SLOTS * SLOT_BYTES);

/** The string of `bytes` from start to end, which are ASCII (one byte a character): the same string each time it is in the table. */
export function internedAscii(bytes: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length > MAX_LENGTH) return bytes.toString('latin1', start, end);
  // The first and last eight bytes tell apart node ids (random at the end) and weights (which differ in their leading digits).
  let hash = 0x811c9dc5 ^ length;
  const head = Math.min(start + 8, end);
  for (let at = start; at < head; at++) hash = Math.imul(hash ^ bytes[at], 0x01000193);
  for (let at = Math.max(head, end - 8); at < end; at++) hash = Math.imul(hash ^ bytes[at], 0x01000193);
  const newer = (hash >>> (32 - SLOT_BITS)) & ~1;
  if (holds(newer, bytes, start, length)) return strings[newer] as string;
  const older = newer + 1;
  if (holds(older, bytes, start, length)) return strings[older] as string;
  strings[older] = strings[newer];
  slots.copyWithin(older * SLOT_BYTES, newer * SLOT_BYTES, (newer + 1) * SLOT_BYTES);
  const made = bytes.toString('latin1', start, end);
  strings[newer] = made;
  slots[newer * SLOT_BYTES] = length + 1;
  bytes.copy(slots, newer * SLOT_BYTES + 1, start, end);
  return made;
}

function holds(slot: number, bytes: Buffer, start: number, length: number): boolean {
  const base = slot * SLOT_BYTES;
  if (slots[base] !== length + 1) return false;
  for (let index = 0; index < length; index++) if (slots[base + 1 + index] !== bytes[start + index]) return false;
  return true;
}
