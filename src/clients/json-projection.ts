/**
 * What of a JSON value to keep: `true` keeps it whole; `[shape]` keeps each element of an array by
 * shape; an object keeps the keys it lists, each by its own shape, and skips every other, except
 * that `'*'` keeps every key not listed (a map such as node id to entry) by its shape.
 */
export type Projection = true | readonly [Projection] | { readonly [key: string]: Projection };

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
export function projectJson(bytes: Buffer, projection: CompiledProjection): unknown {
  const reader = new ProjectingReader(bytes);
  try {
    return reader.document(projection);
  } catch (error) {
    if (error === SYNTAX || error instanceof RangeError) return NOT_JSON;
    throw error;
  }
}

/** A projection with its keys as bytes, to compare with the body's keys without decoding them. */
export class CompiledProjection {
  readonly keep: boolean;
  readonly each?: CompiledProjection;
  readonly names: readonly string[] = [];
  readonly keys: readonly Buffer[] = [];
  readonly shapes: readonly CompiledProjection[] = [];
  readonly rest?: CompiledProjection;

  constructor(projection: Projection) {
    this.keep = projection === true;
    if (projection === true) return;
    if (Array.isArray(projection)) {
      this.each = new CompiledProjection((projection as readonly [Projection])[0]);
      return;
    }
    const listed = Object.entries(projection as Record<string, Projection>).filter(([name]) => name !== '*');
    this.names = listed.map(([name]) => name);
    this.keys = this.names.map((name) => Buffer.from(name, 'utf8'));
    this.shapes = listed.map(([, shape]) => new CompiledProjection(shape));
    const rest = (projection as Record<string, Projection>)['*'];
    if (rest !== undefined) this.rest = new CompiledProjection(rest);
  }
}

/** Thrown inside the reader for a grammar error; never leaves projectJson. */
const SYNTAX = Symbol('JSON syntax error');
/** Nesting past this is refused as not JSON here, and left to JSON.parse's own limit by the caller. */
const MAX_DEPTH = 512;

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
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** A recursive-descent reader over the bytes: keeps what the projection asks for, skips the rest. */
class ProjectingReader {
  private at = 0;
  private depth = 0;
  /** Set by stringEnd: the string just scanned has escapes, or bytes beyond ASCII. */
  private escaped = false;
  private ascii = true;

  constructor(private readonly bytes: Buffer) {}

  document(projection: CompiledProjection): unknown {
    const value = this.value(projection);
    this.space();
    if (this.at !== this.bytes.length) throw SYNTAX;
    return value;
  }

  private value(projection: CompiledProjection): unknown {
    const first = this.next();
    if (first === OPEN_OBJECT) return projection.names.length > 0 || projection.rest ? this.object(projection) : this.whole();
    if (first === OPEN_ARRAY && projection.each) return this.array(projection.each);
    return this.whole();
  }

  /** A value kept whole, as JSON.parse makes it. */
  private whole(): unknown {
    const first = this.next();
    if (first === QUOTE) return this.string();
    if (first === OPEN_OBJECT) return this.object(KEEP_ALL);
    if (first === OPEN_ARRAY) return this.array(KEEP);
    if (first === 0x74) return this.literal(TRUE, true);
    if (first === 0x66) return this.literal(FALSE, false);
    if (first === 0x6e) return this.literal(NULL, null);
    const start = this.at;
    this.number();
    return Number(this.bytes.toString('latin1', start, this.at));
  }

  private object(projection: CompiledProjection): Record<string, unknown> {
    this.enter();
    const out: Record<string, unknown> = {};
    if (this.closes(CLOSE_OBJECT)) return out;
    for (;;) {
      if (this.next() !== QUOTE) throw SYNTAX;
      const start = this.at + 1;
      const end = this.stringEnd();
      this.expect(COLON);
      const listed = this.escaped ? projection.names.indexOf(this.decoded(start, end)) : this.listed(projection, start, end);
      if (listed >= 0) assign(out, projection.names[listed], this.value(projection.shapes[listed]));
      else if (projection.rest) assign(out, this.decoded(start, end), this.value(projection.rest));
      else this.skip();
      const after = this.next();
      this.at++;
      if (after === CLOSE_OBJECT) return this.leave(out);
      if (after !== COMMA) throw SYNTAX;
    }
  }

  private array(element: CompiledProjection): unknown[] {
    this.enter();
    const out: unknown[] = [];
    if (this.closes(CLOSE_ARRAY)) return out;
    for (;;) {
      out.push(this.value(element));
      const after = this.next();
      this.at++;
      if (after === CLOSE_ARRAY) return this.leave(out);
      if (after !== COMMA) throw SYNTAX;
    }
  }

  /** Checks a value's grammar and moves past it, making nothing. */
  private skip(): void {
    const first = this.next();
    if (first === QUOTE) {
      this.stringEnd();
    } else if (first === OPEN_OBJECT) {
      this.skipMembers(CLOSE_OBJECT, true);
    } else if (first === OPEN_ARRAY) {
      this.skipMembers(CLOSE_ARRAY, false);
    } else if (first === 0x74) this.literal(TRUE, true);
    else if (first === 0x66) this.literal(FALSE, false);
    else if (first === 0x6e) this.literal(NULL, null);
    else this.number();
  }

  private skipMembers(close: number, keyed: boolean): void {
    this.enter();
    if (this.closes(close)) return;
    for (;;) {
      if (keyed) {
        if (this.next() !== QUOTE) throw SYNTAX;
        this.stringEnd();
        this.expect(COLON);
      }
      this.skip();
      const after = this.next();
      this.at++;
      if (after === close) {
        this.leave(undefined);
        return;
      }
      if (after !== COMMA) throw SYNTAX;
    }
  }

  /** The index of the listed key the body's key (its bytes from start to end) equals, or -1. */
  private listed(projection: CompiledProjection, start: number, end: number): number {
    const { keys } = projection;
    const bytes = this.bytes;
    const length = end - start;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      if (key.length !== length) continue;
      let at = 0;
      while (at < length && bytes[start + at] === key[at]) at++;
      if (at === length) return index;
    }
    return -1;
  }

  /** At an opening quote: the string's value. */
  private string(): string {
    const start = this.at + 1;
    const end = this.stringEnd();
    return this.decoded(start, end);
  }

  /** The text of the string whose contents (escaped as sent) run from start to end, as stringEnd left it. */
  private decoded(start: number, end: number): string {
    if (this.escaped) return JSON.parse(this.bytes.toString('utf8', start - 1, end + 1)) as string;
    return this.bytes.toString(this.ascii ? 'latin1' : 'utf8', start, end);
  }

  /**
   * At an opening quote: moves past the closing one and returns its index, checking escapes and
   * refusing raw control characters as JSON.parse does; notes whether it needs more than latin1.
   */
  private stringEnd(): number {
    const bytes = this.bytes;
    const length = bytes.length;
    let at = this.at + 1;
    let escaped = false;
    let ascii = true;
    for (;;) {
      if (at >= length) throw SYNTAX;
      const byte = bytes[at];
      if (byte === QUOTE) break;
      if (byte === BACKSLASH) {
        escaped = true;
        at = this.escapeEnd(at);
      } else if (byte < 0x20) {
        throw SYNTAX;
      } else {
        if (byte >= 0x80) ascii = false;
        at++;
      }
    }
    this.escaped = escaped;
    this.ascii = ascii;
    this.at = at + 1;
    return at;
  }

  private escapeEnd(at: number): number {
    const escape = this.bytes[at + 1];
    if (escape === 0x75) {
      for (let digit = at + 2; digit < at + 6; digit++) if (!isHex(this.bytes[digit])) throw SYNTAX;
      return at + 6;
    }
    // " \ / b f n r t
    if (
      escape === QUOTE ||
      escape === BACKSLASH ||
      escape === 0x2f ||
      escape === 0x62 ||
      escape === 0x66 ||
      escape === 0x6e ||
      escape === 0x72 ||
      escape === 0x74
    )
      return at + 2;
    throw SYNTAX;
  }

  /** JSON's number grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  private number(): void {
    const bytes = this.bytes;
    let at = this.at;
    if (bytes[at] === MINUS) at++;
    if (bytes[at] === ZERO) at++;
    else if (isDigit(bytes[at])) while (isDigit(bytes[at])) at++;
    else throw SYNTAX;
    if (bytes[at] === 0x2e) {
      at++;
      if (!isDigit(bytes[at])) throw SYNTAX;
      while (isDigit(bytes[at])) at++;
    }
    if (bytes[at] === 0x65 || bytes[at] === 0x45) {
      at++;
      if (bytes[at] === 0x2b || bytes[at] === MINUS) at++;
      if (!isDigit(bytes[at])) throw SYNTAX;
      while (isDigit(bytes[at])) at++;
    }
    this.at = at;
  }

  private literal<T>(text: Buffer, value: T): T {
    for (let index = 0; index < text.length; index++) if (this.bytes[this.at + index] !== text[index]) throw SYNTAX;
    this.at += text.length;
    return value;
  }

  /** Skips whitespace and returns the next byte (undefined at the end), not moving past it. */
  private next(): number {
    this.space();
    return this.bytes[this.at];
  }

  private space(): void {
    const bytes = this.bytes;
    let at = this.at;
    for (;;) {
      const byte = bytes[at];
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) at++;
      else break;
    }
    this.at = at;
  }

  private expect(byte: number): void {
    if (this.next() !== byte) throw SYNTAX;
    this.at++;
  }

  /** Past an opening bracket, one level deeper. */
  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw SYNTAX;
    this.at++;
  }

  /** Past the closing bracket and one level up, if the next byte is it. */
  private closes(close: number): boolean {
    if (this.next() !== close) return false;
    this.at++;
    this.depth--;
    return true;
  }

  /** Just past a closing bracket: one level up. */
  private leave<T>(value: T): T {
    this.depth--;
    return value;
  }
}

const KEEP = new CompiledProjection(true);
/** An object kept whole: every key, each kept whole. */
const KEEP_ALL = new CompiledProjection({ '*': true });

/** A key as JSON.parse sets it: an own property, even `__proto__`. */
function assign(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= ZERO && byte <= NINE) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}
