import { UpstreamError } from '../errors.js';
import { ArrayColumns } from './json-projection.js';

/** One object of an array in an answer, with a reader whose errors name it (`validators[3].weight`). */
export interface Entry {
  readonly fields: Record<string, unknown>;
  readonly read: FieldReader;
}

/**
 * Readers for the node's JSON encodings. A reader takes the value and a path for the error message;
 * a bad value throws, so a collector never exports half-parsed data.
 */
export class FieldReader {
  constructor(
    private readonly upstream: string,
    private readonly method: string,
    /**
     * The path of the object this reader was scoped to (see `within`), ending in a dot. Built only
     * for an error: a network-wide pass scopes a reader to each of 2,000 validators per run.
     */
    private readonly prefix: () => string = () => '',
  ) {}

  fail(path: string, expected: string, value: unknown): never {
    throw new UpstreamError(this.upstream, this.method, 'bad_body', `${this.prefix()}${path}: expected ${expected}, got ${preview(value)}`);
  }

  /** A reader for one nested object: paths are given relative to it, errors name the whole path. */
  within(path: string): FieldReader {
    return new FieldReader(this.upstream, this.method, () => `${this.prefix()}${path}.`);
  }

  /**
   * An array of objects, each with its own scoped reader, made as the loop reaches it: an array of
   * 2,000 readers kept across a run's awaits (the network-wide validator pass) doubled its cost.
   */
  *entries(value: unknown, path: string): Generator<Entry> {
    const items = this.array(value, path);
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      if (!isRecord(item)) this.fail(`${path}[${index}]`, 'an object', item);
      yield { fields: item, read: new FieldReader(this.upstream, this.method, () => `${this.prefix()}${path}[${index}].`) };
    }
  }

  /** An array of objects read as columns (see columnsOf): refused as each would refuse it. */
  columns(value: unknown, path: string): ArrayColumns {
    if (!(value instanceof ArrayColumns)) return this.fail(path, 'an array', value);
    if (value.misfit) this.fail(`${path}[${value.misfit.index}]`, 'an object', value.misfit.value);
    return value;
  }

  /**
   * Calls `visit` with each row of an array read as columns, and one reader for them all, scoped to
   * the row being visited: for a pass that reduces each entry at once (1,800 peers a run), where a
   * reader per entry is waste.
   */
  eachRow(columns: ArrayColumns, path: string, visit: (row: number, read: FieldReader) => void): void {
    let row = 0;
    const read = new FieldReader(this.upstream, this.method, () => `${this.prefix()}${path}[${row}].`);
    for (; row < columns.length; row++) visit(row, read);
  }

  object(value: unknown, path: string): Record<string, unknown> {
    if (!isRecord(value)) this.fail(path, 'an object', value);
    return value;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'an array', value);
    return value;
  }

  string(value: unknown, path: string): string {
    if (typeof value !== 'string') this.fail(path, 'a string', value);
    return value;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value !== 'boolean') this.fail(path, 'a boolean', value);
    return value;
  }

  /**
   * A number the node sends as a plain JSON number or a decimal string depending on the field or
   * version (percentages: "99.9812" on the P-Chain, 99.98 on an L1): either, and nothing else: not
   * "12x", not "0x10", not "", not a number too large to be one (1e999). For json.Uint64, see uint64.
   */
  number(value: unknown, path: string): number {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value !== 'string') return this.fail(path, 'a number or decimal string', value);
    // Most are whole (a peer's observedUptime "99", 1,800 a run): read without the pattern's match.
    const whole = wholeNumber(value);
    if (whole >= 0) return whole;
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value) && Number.isFinite(Number(value))) return Number(value);
    return this.fail(path, 'a number or decimal string', value);
  }

  /**
   * AvalancheGo's json.Uint64 and json.Uint32 (weights, stakes, balances, heights, times, networkID):
   * a JSON string of decimal digits, "2000000000000". A plain number is not that encoding either.
   */
  uint64Text(value: unknown, path: string): string {
    if (typeof value !== 'string' || !/^\d+$/.test(value)) this.fail(path, 'a string of decimal digits', value);
    return value;
  }

  /** A json.Uint64 as a number: exact below 2^53, close enough above it for a gauge. */
  uint64(value: unknown, path: string): number {
    return Number(this.uint64Text(value, path));
  }

  /** A field the node may omit (older versions) or send as null; present, it must have its type. */
  optional<T>(value: unknown, path: string, read: (value: unknown, path: string) => T): T | undefined {
    return value === undefined || value === null ? undefined : read.call(this, value, path);
  }

  /** A percentage (string "99.9812" or number) as a 0..1 ratio. */
  percentRatio(value: unknown, path: string): number {
    return this.number(value, path) / 100;
  }

  /** nAVAX as a decimal string to AVAX. Exact to 1e-9 for amounts below 2^53 nAVAX (9M AVAX). */
  navaxToAvax(value: unknown, path: string): number {
    const text = this.uint64Text(value, path);
    return Number(BigInt(text) / 1_000_000_000n) + Number(BigInt(text) % 1_000_000_000n) / 1e9;
  }

  /** RFC3339 (with or without nanoseconds) or Unix seconds to Unix seconds. */
  timestampSeconds(value: unknown, path: string): number {
    if ((typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^\d{1,15}$/.test(value)))
      return Number(value);
    const text = this.string(value, path);
    const millis = Date.parse(text.replace(/(\.\d{3})\d+/, '$1'));
    if (Number.isNaN(millis)) this.fail(path, 'an RFC3339 time', value);
    return millis / 1000;
  }
}

/** Go's zero time, which the node reports for a check that has not run yet. */
export const GO_ZERO_TIME_SECONDS = Date.parse('0001-01-01T00:00:00Z') / 1000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The value of 1 to 15 decimal digits (exact as a double), or -1 for any other text. */
function wholeNumber(text: string): number {
  if (text.length === 0 || text.length > 15) return -1;
  let value = 0;
  for (let index = 0; index < text.length; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
