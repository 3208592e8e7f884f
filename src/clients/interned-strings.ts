/**
 * Short ASCII strings read from answers' bytes, kept to be handed out again: the node ids, versions
 * and weights a fleet's nodes answer every minute are mostly the same strings, so a read finds
 * them here instead of allocating each anew (and the daemon keeps one copy of each). A table of
 * fixed size: each string in one of the two slots its hash picks (the older of the two giving
 * way), its bytes beside it to compare with a body's. At most SLOTS strings of at most MAX_LENGTH
 * bytes: about 3 MB for the process at most.
 */
const SLOTS = 1 << 14;
const MAX_LENGTH = 64;
const strings: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
const lengths = new Uint8Array(SLOTS);
const arena = new Uint8Array(SLOTS * MAX_LENGTH);

/** The string of `bytes` from start to end, which are ASCII (one byte a character): the same string each time it is in the table. */
export function internedAscii(bytes: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length > MAX_LENGTH) return bytes.toString('latin1', start, end);
  // The first and last eight bytes tell apart node ids (random at the end) and weights (which differ in their leading digits).
  let hash = 0x811c9dc5 ^ length;
  const head = Math.min(start + 8, end);
  for (let at = start; at < head; at++) hash = Math.imul(hash ^ bytes[at], 0x01000193);
  for (let at = Math.max(head, end - 8); at < end; at++) hash = Math.imul(hash ^ bytes[at], 0x01000193);
  const newer = (hash >>> 18) & ~1;
  if (holds(newer, bytes, start, length)) return strings[newer] as string;
  const older = newer + 1;
  if (holds(older, bytes, start, length)) return strings[older] as string;
  strings[older] = strings[newer];
  lengths[older] = lengths[newer];
  arena.copyWithin(older * MAX_LENGTH, newer * MAX_LENGTH, newer * MAX_LENGTH + lengths[newer]);
  const made = bytes.toString('latin1', start, end);
  strings[newer] = made;
  lengths[newer] = length;
  bytes.copy(arena, newer * MAX_LENGTH, start, end);
  return made;
}

function holds(slot: number, bytes: Buffer, start: number, length: number): boolean {
  if (lengths[slot] !== length || strings[slot] === undefined) return false;
  const base = slot * MAX_LENGTH;
  for (let index = 0; index < length; index++) if (arena[base + index] !== bytes[start + index]) return false;
  return true;
}
