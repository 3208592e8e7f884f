/**
 * Short ASCII strings read from answers' bytes, kept to be handed out again: the node ids, versions
 * and weights a fleet's nodes answer every minute are mostly the same strings, so a read finds
 * them here instead of allocating each anew (and V8 keeps one copy where they become keys).
 * A table of fixed size, each string in one of two slots its hash picks, the older of the two
 * giving way: at most SLOTS strings of at most MAX_LENGTH bytes (about 1.3 MB) for the process.
 */
const SLOTS = 1 << 14;
const MAX_LENGTH = 64;
const table: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);

/** The string of `bytes` from start to end, which are ASCII (one byte a character): the same string each time when it is in the table. */
export function internedAscii(bytes: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length > MAX_LENGTH) return bytes.toString('latin1', start, end);
  // The first and last eight bytes tell apart node ids (random at the end) and weights (which differ in their leading digits).
  let hash = 0x811c9dc5 ^ length;
  const head = Math.min(start + 8, end);
  for (let at = start; at < head; at++) hash = Math.imul(hash ^ bytes[at], 0x01000193);
  for (let at = Math.max(head, end - 8); at < end; at++) hash = Math.imul(hash ^ bytes[at], 0x01000193);
  const slot = (hash >>> 18) & ~1;
  const newer = table[slot];
  if (newer !== undefined && sameText(newer, bytes, start, length)) return newer;
  const older = table[slot + 1];
  if (older !== undefined && sameText(older, bytes, start, length)) return older;
  const made = bytes.toString('latin1', start, end);
  table[slot + 1] = newer;
  table[slot] = made;
  return made;
}

function sameText(text: string, bytes: Buffer, start: number, length: number): boolean {
  if (text.length !== length) return false;
  for (let index = 0; index < length; index++) if (text.charCodeAt(index) !== bytes[start + index]) return false;
  return true;
}
