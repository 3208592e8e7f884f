import { internedAscii } from './interned-strings.js';

/**
 * What of a JSON value to keep: `true` keeps it whole; `[shape]` keeps each element of an array by
 * shape; an object keeps the keys it lists, each by its own shape, and skips every other, except
 * that `'*'` keeps every key not listed (a map such as node id to entry) by its shape;
 * `columnsOf(fields)` reads an array of objects as one column per field (see ArrayColumns).
 */
export type Projection = true | readonly [Projection] | ColumnsProjection | { readonly [key: string]: Projection };

/** An array of objects read as columns of the fields listed, each field's value kept whole. */
export class ColumnsProjection {
  constructor(readonly fields: readonly string[]) {}
}

export function columnsOf(...fields: string[]): ColumnsProjection {
  return new ColumnsProjection(fields);
}

/**
 * An array of objects as read by `columnsOf`: for each field listed, the value each element holds
 * (undefined where it has none), with no object per element: 1,800 peers a run at every node of a
 * fleet made 1,800 objects to read four fields of each and drop. Values are as JSON.parse gives
 * them, but that an empty array is one shared frozen array (readers read, never change them).
 * `misfit` is the first element that is not an object, for the reader to refuse by its index.
 */
export class ArrayColumns {
  static readonly none = new ArrayColumns([], [], 0);

  constructor(
    readonly fields: readonly string[],
    private readonly values: readonly (readonly unknown[])[],
    readonly length: number,
    readonly misfit?: { readonly index: number; readonly value: unknown },
  ) {}

  /** The column of a listed field (none of an empty array's is read). */
  column(field: string): readonly unknown[] {
    const index = this.fields.indexOf(field);
    if (index >= 0) return this.values[index];
    if (this.length === 0) return NO_ELEMENTS;
    throw new Error(`${field} is not a column`);
  }
}

/** Returned by projectJson for bytes that are not one JSON document: the caller decides what to say. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * The value of a JSON document with only the projected parts made into objects: the rest is
 * checked for JSON's grammar and skipped. Keeps what JSON.parse would give for the parts kept,
 * including a kept part of another type than its shape expects (an object where `[shape]` was
 * asked for is kept whole), so a field reader still names what is wrong. Bodies of a megabyte
 * whose readers use a few fields of each entry (info.peers) no longer become a tree of objects
 * and strings to read four of fourteen fields and drop (docs/decisions.md#a-field-only-read-of-large-answers).
 */
export function projectJson(body: Buffer, projection: CompiledProjection): unknown {
  bytes = body;
  position = 0;
  depth = 0;
  nextBackslash = -1;
  compact = undefined;
  try {
    const value = readValue(projection);
    return spaceFrom(body, position) === body.length ? value : NOT_JSON;
  } catch (error) {
    if (error === SYNTAX || error instanceof RangeError) return NOT_JSON;
    throw error;
  } finally {
    bytes = NO_BYTES;
  }
}

/** A projection with its keys as bytes, to compare with the body's keys without decoding them. */
export class CompiledProjection {
  /** An object read field by field: it lists keys or keeps the rest. */
  readonly keyed: boolean;
  readonly each: CompiledProjection | undefined;
  readonly names: readonly string[] = [];
  readonly keys: readonly Buffer[] = [];
  readonly shapes: readonly CompiledProjection[] = [];
  /** The index of a listed `__proto__`, set as an own field (as JSON.parse does), or -1. */
  readonly protoIndex: number = -1;
  readonly rest: CompiledProjection | undefined;
  /** By a key's length in bytes: the first listed key of that length (-1 for none), each linked to the next. */
  private readonly firstOfLength: Int16Array = new Int16Array(0);
  private readonly nextOfLength: Int16Array = new Int16Array(0);

  /** Set for an array read as columns of these fields (see columnsOf). */
  readonly columns: boolean;
  /** The length of the last array read as columns: the next one is likely as long. */
  lastLength = 0;

  constructor(projection: Projection) {
    this.each = Array.isArray(projection) ? new CompiledProjection((projection as readonly [Projection])[0]) : undefined;
    this.columns = projection instanceof ColumnsProjection;
    if (projection === true || Array.isArray(projection)) {
      this.keyed = false;
      this.rest = undefined;
      return;
    }
    const listed =
      projection instanceof ColumnsProjection
        ? projection.fields.map((field): [string, Projection] => [field, true])
        : Object.entries(projection as Record<string, Projection>).filter(([name]) => name !== '*');
    this.names = listed.map(([name]) => name);
    this.keys = this.names.map((name) => Buffer.from(name, 'utf8'));
    this.shapes = listed.map(([, shape]) => new CompiledProjection(shape));
    this.protoIndex = this.names.indexOf('__proto__');
    this.firstOfLength = new Int16Array(Math.max(0, ...this.keys.map((key) => key.length + 1))).fill(-1);
    this.nextOfLength = new Int16Array(this.keys.length).fill(-1);
    for (let index = this.keys.length - 1; index >= 0; index--) {
      const length = this.keys[index].length;
      this.nextOfLength[index] = this.firstOfLength[length];
      this.firstOfLength[length] = index;
    }
    const rest = this.columns ? undefined : (projection as Record<string, Projection>)['*'];
    this.rest = rest === undefined ? undefined : new CompiledProjection(rest);
    this.keyed = !this.columns && (this.names.length > 0 || this.rest !== undefined);
  }

  /** The index of the listed key whose bytes are the body's from start to end, or -1. */
  listed(bytes: Buffer, start: number, end: number): number {
    const length = end - start;
    if (length >= this.firstOfLength.length) return -1;
    for (let index = this.firstOfLength[length]; index >= 0; index = this.nextOfLength[index]) {
      const key = this.keys[index];
      let at = 0;
      while (at < length && bytes[start + at] === key[at]) at++;
      if (at === length) return index;
    }
    return -1;
  }
}

/** Thrown inside the reader for a grammar error; never leaves projectJson. */
const SYNTAX = Symbol('JSON syntax error');
/** Nesting past this is refused as not JSON here, and left to JSON.parse's own limit by the caller. */
const MAX_DEPTH = 512;
/**
 * Skipped strings longer than this are searched for their closing quote natively (memchr): below
 * it (addresses, dates) the call costs more than the loop; node ids (47 bytes) and keys gain.
 */
const SEARCHED_STRING = 40;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_T = 0x74;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const SPACE = 0x20;
/** The top bit of each byte of a word. */
const TOP_BITS = 0x80808080 | 0;

/** Which bytes end a run of a string's plain contents: a quote, a backslash, a control character. */
const STRING_STOP = new Uint8Array(256);
STRING_STOP.fill(1, 0, SPACE);
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

/** The most rows columns are sized for before an array is read; a longer one grows them as it is read. */
const MAX_PRESIZED = 10_000;

const KEEP = new CompiledProjection(true);
/** An object kept whole: every key, each kept whole. */
const KEEP_ALL = new CompiledProjection({ '*': true });
const NO_BYTES = Buffer.alloc(0);
const NO_ELEMENTS: readonly unknown[] = Object.freeze([]);
/** What readObject returns for an element read into columns: nothing is written to it. */
const NO_FIELDS: Record<string, unknown> = Object.freeze({});

// The reader's state while projectJson runs (it is synchronous and calls out to nothing): the
// functions below pass their place on through `position` and keep it in locals in their loops.
let bytes: Buffer = NO_BYTES;
/** The index of the next byte to read, between functions. */
let position = 0;
/** The nesting of the value being read. */
let depth = 0;
/** Set by stringEnd: the string just scanned has escapes, or bytes beyond ASCII. */
let escaped = false;
let ascii = true;
/**
 * No control character (bytes below 0x20) between the first and last token: a long skipped string
 * may end at the next quote found natively, unless a backslash (found the same way) comes first.
 * Learnt at the first long string (a body of short strings never pays for it); a pretty-printed
 * body (AvalancheGo's are not) is read byte by byte.
 */
let compact: boolean | undefined;
/** The next backslash at or after the last search for one, or the body's length; -1 before the first. */
let nextBackslash = -1;
/** The containers a skip is inside, by depth: each one's closing byte. */
const closers = new Uint8Array(MAX_DEPTH + 1);

/** A value at `position`, kept as the projection says; `position` ends past it. */
function readValue(projection: CompiledProjection): unknown {
  const data = bytes;
  let at = position;
  let first = data[at];
  if (first <= SPACE) {
    at = spaceFrom(data, at);
    first = data[at];
  }
  position = at;
  if (first === OPEN_OBJECT) return readObject(projection.keyed ? projection : KEEP_ALL);
  if (first === OPEN_ARRAY) return projection.columns ? readColumns(projection) : readArray(projection.each ?? KEEP);
  if (first === QUOTE) {
    const end = stringEnd(data, at + 1);
    position = end + 1;
    return decoded(data, at + 1, end);
  }
  if (first === LOWER_T) {
    position = literalEnd(data, at, TRUE);
    return true;
  }
  if (first === LOWER_F) {
    position = literalEnd(data, at, FALSE);
    return false;
  }
  if (first === LOWER_N) {
    position = literalEnd(data, at, NULL);
    return null;
  }
  position = numberEnd(data, at);
  return numberValue(data, at, position);
}

/**
 * An object kept as `projection` says; or, given `columns`, an element of an array read as columns:
 * its listed fields go to `row` of their columns (the last of a key given twice wins, as in
 * JSON.parse; a field it lacks is a hole, read as undefined) and no object is made.
 */
function readObject(projection: CompiledProjection, columns?: unknown[][], row = 0): Record<string, unknown> {
  if (++depth > MAX_DEPTH) throw SYNTAX;
  const data = bytes;
  const out: Record<string, unknown> = columns ? NO_FIELDS : {};
  let at = position + 1;
  let next = data[at];
  if (next <= SPACE) {
    at = spaceFrom(data, at);
    next = data[at];
  }
  if (next === CLOSE_OBJECT) {
    position = at + 1;
    depth--;
    return out;
  }
  for (;;) {
    if (next !== QUOTE) throw SYNTAX;
    const start = at + 1;
    const end = stringEnd(data, start);
    at = end + 1;
    if (data[at] !== COLON) {
      at = spaceFrom(data, at);
      if (data[at] !== COLON) throw SYNTAX;
    }
    at++;
    const listed = escaped ? projection.names.indexOf(decoded(data, start, end)) : projection.listed(data, start, end);
    if (listed >= 0) {
      position = at;
      const value = columns ? readCell() : readValue(projection.shapes[listed]);
      at = position;
      if (columns) columns[listed][row] = value;
      else if (listed === projection.protoIndex) ownProto(out, value);
      else out[projection.names[listed]] = value;
    } else if (projection.rest !== undefined) {
      const key = decoded(data, start, end);
      position = at;
      const value = readValue(projection.rest);
      at = position;
      if (key === '__proto__') ownProto(out, value);
      else out[key] = value;
    } else at = skipValue(data, at);
    next = data[at];
    if (next <= SPACE) {
      at = spaceFrom(data, at);
      next = data[at];
    }
    if (next === COMMA) {
      next = data[++at];
      if (next <= SPACE) {
        at = spaceFrom(data, at);
        next = data[at];
      }
    } else if (next === CLOSE_OBJECT) {
      position = at + 1;
      depth--;
      return out;
    } else throw SYNTAX;
  }
}

function readArray(element: CompiledProjection): unknown[] {
  if (++depth > MAX_DEPTH) throw SYNTAX;
  const data = bytes;
  const out: unknown[] = [];
  let at = spaceFrom(data, position + 1);
  if (data[at] === CLOSE_ARRAY) {
    position = at + 1;
    depth--;
    return out;
  }
  for (;;) {
    position = at;
    out.push(readValue(element));
    at = position;
    let next = data[at];
    if (next <= SPACE) {
      at = spaceFrom(data, at);
      next = data[at];
    }
    at++;
    if (next === CLOSE_ARRAY) {
      position = at;
      depth--;
      return out;
    }
    if (next !== COMMA) throw SYNTAX;
  }
}

/** An array read as `projection`'s columns: each element's listed fields, with no object per element. */
function readColumns(projection: CompiledProjection): ArrayColumns {
  if (++depth > MAX_DEPTH) throw SYNTAX;
  const data = bytes;
  // Sized as the last array read by this projection (1,800 peers at each node of a fleet): grown
  // by push, each column was copied over and over, which took more than an object per element.
  // Never past MAX_PRESIZED: one huge answer must not size every later read (nor make the columns
  // dictionaries, as V8 makes a very long `new Array(n)`).
  const presized = Math.min(projection.lastLength, MAX_PRESIZED);
  const values: unknown[][] = projection.names.map(() => new Array<unknown>(presized));
  let length = 0;
  let misfit: ArrayColumns['misfit'];
  let at = spaceFrom(data, position + 1);
  if (data[at] !== CLOSE_ARRAY)
    for (;;) {
      position = at;
      if (data[at] === OPEN_OBJECT) readObject(projection, values, length);
      else {
        const value = readValue(KEEP);
        misfit ??= { index: length, value };
      }
      length++;
      at = position;
      let next = data[at];
      if (next <= SPACE) {
        at = spaceFrom(data, at);
        next = data[at];
      }
      if (next === CLOSE_ARRAY) break;
      if (next !== COMMA) throw SYNTAX;
      at++;
      if (data[at] <= SPACE) at = spaceFrom(data, at);
    }
  position = at + 1;
  depth--;
  for (const column of values) column.length = length;
  projection.lastLength = length;
  return new ArrayColumns(projection.names, values, length, misfit);
}

/**
 * A field's value in a column, kept whole; an empty array is one shared, frozen array: most peers
 * are benched on no chain, and 1,800 empty arrays a run were a fifth of what reading them made.
 */
function readCell(): unknown {
  const data = bytes;
  let at = position;
  if (data[at] <= SPACE) at = spaceFrom(data, at);
  if (data[at] === OPEN_ARRAY) {
    let next = at + 1;
    if (data[next] <= SPACE) next = spaceFrom(data, next);
    if (data[next] === CLOSE_ARRAY) {
      position = next + 1;
      return NO_ELEMENTS;
    }
  }
  return readValue(KEEP);
}

/**
 * Checks the grammar of the value at `from` and returns the index past it, making nothing. One
 * loop over the nesting (each container's closer on `closers`) rather than a call per value: most
 * of a large answer is skipped.
 */
function skipValue(data: Buffer, from: number): number {
  const base = depth;
  let level = base;
  let at = from;
  for (;;) {
    // A value starts here.
    let first = data[at];
    if (first <= SPACE) {
      at = spaceFrom(data, at);
      first = data[at];
    }
    if (first === QUOTE) at = skippedStringEnd(data, at + 1) + 1;
    else if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      // `}` and `]` are two past `{` and `[`.
      const closer = first + 2;
      let next = data[++at];
      if (next <= SPACE) {
        at = spaceFrom(data, at);
        next = data[at];
      }
      if (next === closer) at++;
      else {
        if (++level > MAX_DEPTH) throw SYNTAX;
        closers[level] = closer;
        if (closer === CLOSE_OBJECT) at = skippedKeyEnd(data, at);
        continue;
      }
    } else if (first === LOWER_T) at = literalEnd(data, at, TRUE);
    else if (first === LOWER_F) at = literalEnd(data, at, FALSE);
    else if (first === LOWER_N) at = literalEnd(data, at, NULL);
    else at = numberEnd(data, at);
    // A value ended here: the containers it closes, up to the next member's value.
    for (;;) {
      if (level === base) return at;
      let next = data[at];
      if (next <= SPACE) {
        at = spaceFrom(data, at);
        next = data[at];
      }
      at++;
      const closer = closers[level];
      if (next === COMMA) {
        if (closer === CLOSE_OBJECT) at = skippedKeyEnd(data, at);
        break;
      }
      if (next !== closer) throw SYNTAX;
      level--;
    }
  }
}

/** At a skipped member's key: the index past its colon. */
function skippedKeyEnd(data: Buffer, from: number): number {
  let at = from;
  if (data[at] !== QUOTE) {
    at = spaceFrom(data, at);
    if (data[at] !== QUOTE) throw SYNTAX;
  }
  at = skippedStringEnd(data, at + 1) + 1;
  if (data[at] !== COLON) {
    at = spaceFrom(data, at);
    if (data[at] !== COLON) throw SYNTAX;
  }
  return at + 1;
}

/**
 * From a string's first byte: the index of its closing quote, checking escapes and refusing raw
 * control characters as JSON.parse does; notes whether it has escapes or bytes beyond ASCII.
 */
function stringEnd(data: Buffer, from: number): number {
  let at = from;
  let high = 0;
  let found = false;
  for (;;) {
    let byte = data[at];
    while (STRING_STOP[byte] === 0) {
      high |= byte;
      byte = data[++at];
    }
    if (byte === QUOTE) break;
    if (byte !== BACKSLASH) throw SYNTAX;
    found = true;
    at = escapeEnd(data, at);
  }
  escaped = found;
  ascii = high < 0x80;
  return at;
}

/**
 * As stringEnd for a string skipped: in a compact body a long one's closing quote is searched for
 * natively, and the same search for backslashes tells when it has escapes to check.
 */
function skippedStringEnd(data: Buffer, from: number): number {
  let at = from;
  const short = from + SEARCHED_STRING;
  let byte = data[at];
  while (STRING_STOP[byte] === 0 && at < short) byte = data[++at];
  if (byte === QUOTE) return at;
  if (at < short) return stringEnd(data, at);
  compact ??= !hasControlBytes(data);
  if (!compact) return stringEnd(data, at);
  const quote = data.indexOf(QUOTE, at);
  if (quote < 0) throw SYNTAX;
  if (nextBackslash < at) {
    const backslash = data.indexOf(BACKSLASH, at);
    nextBackslash = backslash < 0 ? data.length : backslash;
  }
  return nextBackslash < quote ? stringEnd(data, at) : quote;
}

/** The text of the string whose contents (escaped as sent) run from start to end, as stringEnd left it. */
function decoded(data: Buffer, start: number, end: number): string {
  if (escaped) return JSON.parse(data.toString('utf8', start - 1, end + 1)) as string;
  if (!ascii) return data.toString('utf8', start, end);
  return internedAscii(data, start, end);
}

/** The index of the first byte at or after `from` that is not whitespace. */
function spaceFrom(data: Buffer, from: number): number {
  let at = from;
  let byte = data[at];
  while (byte === SPACE || byte === 0x0a || byte === 0x0d || byte === 0x09) byte = data[++at];
  return at;
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** A `__proto__` key as JSON.parse sets it: an own field, never the prototype. */
function ownProto(out: Record<string, unknown>, value: unknown): void {
  Object.defineProperty(out, '__proto__', { value, enumerable: true, writable: true, configurable: true });
}

/** Whether a byte below 0x20 lies between the body's first and last byte that are not whitespace. */
function hasControlBytes(data: Buffer): boolean {
  let start = 0;
  let end = data.length;
  while (start < end && data[start] <= SPACE) start++;
  while (end > start && data[end - 1] <= SPACE) end--;
  // Four bytes at a time where aligned: a byte is below 0x20 when none of its top three bits is set.
  const misaligned = (data.byteOffset + start) % 4;
  const firstWord = Math.min(misaligned === 0 ? start : start + 4 - misaligned, end);
  const words = (end - firstWord) >> 2;
  const lastWord = firstWord + words * 4;
  let below = false;
  for (let at = start; at < firstWord; at++) below ||= data[at] < SPACE;
  for (let at = lastWord; at < end; at++) below ||= data[at] < SPACE;
  if (below || words === 0) return below;
  return (wordsClearOfTopBits(new Int32Array(data.buffer, data.byteOffset + firstWord, words)) & TOP_BITS) !== 0;
}

/**
 * The top bit of each byte is set where some word has a byte none of whose top three bits is set.
 * A function of its own: optimized while in its loop (on-stack replacement), it would otherwise
 * deoptimize at every call on the first operation after the loop, which had no type feedback yet.
 */
function wordsClearOfTopBits(words: Int32Array): number {
  let clear = 0;
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    clear |= ~(word | (word << 1) | (word << 2));
  }
  return clear;
}

/** At a backslash in a string: the index past its escape, which must be one of JSON's. */
function escapeEnd(data: Buffer, at: number): number {
  const escape = data[at + 1];
  if (escape === 0x75) {
    for (let digit = at + 2; digit < at + 6; digit++) if (!isHex(data[digit])) throw SYNTAX;
    return at + 6;
  }
  // " \ / b f n r t
  if (
    escape === QUOTE ||
    escape === BACKSLASH ||
    escape === 0x2f ||
    escape === 0x62 ||
    escape === LOWER_F ||
    escape === LOWER_N ||
    escape === 0x72 ||
    escape === LOWER_T
  )
    return at + 2;
  throw SYNTAX;
}

/** JSON's number grammar, from `from`: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?; the index past it. */
function numberEnd(data: Buffer, from: number): number {
  let at = from;
  let byte = data[at];
  if (byte === MINUS) byte = data[++at];
  if (byte === ZERO) byte = data[++at];
  else if (byte >= 0x31 && byte <= NINE) {
    do byte = data[++at];
    while (byte >= ZERO && byte <= NINE);
  } else throw SYNTAX;
  if (byte === 0x2e) {
    byte = data[++at];
    if (!(byte >= ZERO && byte <= NINE)) throw SYNTAX;
    do byte = data[++at];
    while (byte >= ZERO && byte <= NINE);
  }
  if (byte === 0x65 || byte === 0x45) {
    byte = data[++at];
    if (byte === 0x2b || byte === MINUS) byte = data[++at];
    if (!(byte >= ZERO && byte <= NINE)) throw SYNTAX;
    do byte = data[++at];
    while (byte >= ZERO && byte <= NINE);
  }
  return at;
}

/** Integers of up to 15 digits are exact as doubles, summed digit by digit; any other number is left to Number. */
function numberValue(data: Buffer, start: number, end: number): number {
  const negative = data[start] === MINUS;
  const digits = negative ? start + 1 : start;
  if (end - digits > 15) return Number(data.toString('latin1', start, end));
  let value = 0;
  for (let at = digits; at < end; at++) {
    const digit = data[at] - ZERO;
    if (digit < 0 || digit > 9) return Number(data.toString('latin1', start, end));
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

function literalEnd(data: Buffer, at: number, text: Buffer): number {
  for (let index = 0; index < text.length; index++) if (data[at + index] !== text[index]) throw SYNTAX;
  return at + text.length;
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= ZERO && byte <= NINE) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}
