import { describe, expect, it } from 'vitest';
import { columnsOf, CompiledProjection, NOT_JSON, projectJson, type Projection } from '../../src/clients/json-projection.js';
import { plainColumns, reference } from '../helpers/json-reference.js';

/**
 * The projecting reader against JSON.parse on generated documents: what it keeps must be what
 * JSON.parse gives for those parts, and what JSON.parse refuses it must refuse. Seeded, so a
 * failure names a case that can be read again.
 */

/** mulberry32: a small seeded generator, enough to vary documents reproducibly. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'nodeID',
  'weight',
  'peers',
  'result',
  '__proto__',
  '',
  'a',
  'é',
  'x"y',
  'back\\slash',
  'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
];
const TEXTS = [
  '',
  'plain',
  'NodeID-Zg5vPtVk5SVCHLVgsiD4Rx3iwU3ajUKxT',
  'avalanchego/1.14.2',
  'quote " inside and more than sixteen bytes',
  'back\\slash \\ twice, long enough to be searched',
  'tab\tnew\nline\r and \u0001 control, long enough',
  'Nöde-ß 日本 😀 beyond ASCII',
  '/ slash',
  '\u2028\u2029 separators',
  '0x8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f',
];
const NUMBERS = [
  '0',
  '-0',
  '7',
  '-12',
  '1.5',
  '-2e3',
  '3E+2',
  '4e-2',
  '0.000001',
  '123456789012345',
  '1234567890123456',
  '9007199254740993',
  '1e999',
  '-1e-999',
  '10.25e2',
];

function pick<T>(random: () => number, from: readonly T[]): T {
  return from[Math.floor(random() * from.length)];
}

/** A string's JSON text, with escapes of many forms (JSON.parse reads them all the same). */
function quoted(random: () => number, text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const roll = random();
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20) out += roll < 0.5 ? JSON.stringify(char).slice(1, -1) : `\\u${code.toString(16).padStart(4, '0')}`;
    else if (roll < 0.05 && code < 0x10000) {
      const hex = code.toString(16).padStart(4, '0');
      out += `\\u${roll < 0.025 ? hex.toUpperCase() : hex}`;
    } else if (roll < 0.07 && code > 0xffff) {
      const high = 0xd800 + ((code - 0x10000) >> 10);
      const low = 0xdc00 + ((code - 0x10000) & 0x3ff);
      out += `\\u${high.toString(16)}\\u${low.toString(16)}`;
    } else if (roll < 0.09 && char === '/') out += '\\/';
    else out += char;
  }
  return `${out}"`;
}

function space(random: () => number): string {
  return random() < 0.85 ? '' : pick(random, [' ', '\n', '\t', '\r\n  ', '  ']);
}

/** A JSON text of a random value, nesting at most `depth` deeper. */
function document(random: () => number, depth: number): string {
  const roll = random();
  if (depth > 0 && roll < 0.3) {
    const members = Math.floor(random() * 6);
    const parts: string[] = [];
    for (let index = 0; index < members; index++) {
      // Duplicate keys come up often: the pool is small.
      parts.push(
        `${space(random)}${quoted(random, pick(random, KEYS))}${space(random)}:${space(random)}${document(random, depth - 1)}${space(random)}`,
      );
    }
    return `{${parts.join(',')}${members === 0 ? space(random) : ''}}`;
  }
  if (depth > 0 && roll < 0.5) {
    const items = Math.floor(random() * 6);
    const parts: string[] = [];
    for (let index = 0; index < items; index++) parts.push(`${space(random)}${document(random, depth - 1)}${space(random)}`);
    return `[${parts.join(',')}${items === 0 ? space(random) : ''}]`;
  }
  if (roll < 0.75) return quoted(random, pick(random, TEXTS));
  if (roll < 0.92) return pick(random, NUMBERS);
  return pick(random, ['true', 'false', 'null']);
}

/** A projection that follows the value's shape in places and not in others. */
function projectionFor(random: () => number, value: unknown, depth: number): Projection {
  if (depth === 0 || random() < 0.2) return true;
  if (Array.isArray(value)) {
    const roll = random();
    if (roll < 0.6) return [projectionFor(random, value[0], depth - 1)];
    if (roll < 0.8) return columnsOf(...fieldsOf(random, value), 'absent');
    return { nodeID: true };
  }
  if (value !== null && typeof value === 'object') {
    const shape: Record<string, Projection> = {};
    for (const key of Object.keys(value))
      if (random() < 0.5) shape[key] = projectionFor(random, (value as Record<string, unknown>)[key], depth - 1);
    if (random() < 0.2) shape.absent = true;
    if (random() < 0.3) shape['*'] = projectionFor(random, undefined, depth - 1);
    return Object.keys(shape).length === 0 ? { absent: true } : shape;
  }
  return pick(random, [true, [true], { nodeID: true }] as Projection[]);
}

/** Some of the keys the array's objects have: columns to read. */
function fieldsOf(random: () => number, elements: unknown[]): string[] {
  const keys = new Set(elements.flatMap((element) => (element !== null && typeof element === 'object' ? Object.keys(element) : [])));
  return [...keys].filter(() => random() < 0.6);
}

/** The text's bytes, sometimes at an offset not a multiple of four in their memory. */
function bytesOf(random: () => number, text: string): Buffer {
  const shift = Math.floor(random() * 4);
  const bytes = Buffer.alloc(Buffer.byteLength(text) + shift);
  bytes.write(text, shift);
  return bytes.subarray(shift);
}

function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** One edit that usually breaks a document: a byte dropped, added or changed, or the end cut off. */
function mutated(random: () => number, text: string): string {
  const at = Math.floor(random() * (text.length + 1));
  const roll = random();
  const inserted = pick(random, ['"', '{', '}', '[', ']', ',', ':', '\\', ' ', '\u0001', '\t', '0', '-', '.', 'e', 'x', 'n', 'é']);
  if (roll < 0.3) return text.slice(0, at) + text.slice(at + 1);
  if (roll < 0.6) return text.slice(0, at) + inserted + text.slice(at);
  if (roll < 0.85) return text.slice(0, at) + inserted + text.slice(at + 1);
  return text.slice(0, at);
}

describe('projectJson against JSON.parse on generated documents', () => {
  it('keeps what JSON.parse gives for the projected parts of 3,000 documents', () => {
    const random = generator(47);
    for (let run = 0; run < 3000; run++) {
      const text = `${space(random)}${document(random, 6)}${space(random)}`;
      const value = JSON.parse(text);
      const projection = projectionFor(random, value, 5);
      const read = projectJson(bytesOf(random, text), new CompiledProjection(projection));
      expect(plainColumns(read), `document ${run}: ${text} with ${JSON.stringify(projection)}`).toStrictEqual(reference(value, projection));
    }
  });

  it('refuses what JSON.parse refuses, and reads the same what it accepts, in 6,000 edited documents', () => {
    const random = generator(48);
    let refused = 0;
    for (let run = 0; run < 6000; run++) {
      const bytes = bytesOf(random, mutated(random, document(random, 5)));
      // Some edits are of a byte: beyond ASCII (often not UTF-8 then) or a control character.
      if (random() < 0.2 && bytes.length > 0)
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 0x20) + (random() < 0.5 ? 0x80 : 0);
      const roll = random();
      const projection: Projection =
        roll < 0.4 ? true : roll < 0.7 ? { nodeID: true, '*': [true] } : { nodeID: true, '*': columnsOf('nodeID', 'b') };
      const read = projectJson(bytes, new CompiledProjection(projection));
      // As the daemon reads a body it cannot project: its bytes decoded as UTF-8, then parsed.
      const text = bytes.toString('utf8');
      const expected = parsed(text);
      if (expected === undefined) refused++;
      expect(plainColumns(read), `document ${run}: ${JSON.stringify(text)}`).toStrictEqual(
        expected === undefined ? NOT_JSON : reference(expected.value, projection),
      );
    }
    // The edits must break most documents, or this would test little of the refusing.
    expect(refused).toBeGreaterThan(3000);
  });

  const long = 'x'.repeat(40);
  it.each([
    ['a raw tab in a long skipped string', `{"keep":1,"skip":"${long}\t${long}"}`],
    ['a raw control character in a long skipped string', `{"keep":1,"skip":"${long}\u0001${long}"}`],
    ['a raw newline in a long skipped key', `{"keep":1,"${long}\n${long}":2}`],
    ['an unknown escape in a long skipped string', `{"keep":1,"skip":"${long}\\x${long}"}`],
    ['a short \\u escape in a long skipped string', `{"keep":1,"skip":"${long}\\u12"}`],
    ['an escaped quote ending a long skipped string', `{"keep":1,"skip":"${long}\\"}`],
    ['a long skipped string never closed', `{"keep":1,"skip":"${long}`],
    ['a control character at the end of the body', `{"keep":1,"skip":"${long}"}\u0001`],
  ])('refuses %s, as JSON.parse does', (_, text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(projectJson(Buffer.from(text), new CompiledProjection({ keep: true }))).toBe(NOT_JSON);
  });

  it.each([
    [
      'escaped quotes and backslashes in long skipped strings',
      `{"skip":"${long}\\"${long}\\\\","keep":"${long}\\\\","more":"${long}\\"\\\\\\""}`,
    ],
    [
      'a backslash in one string and none in the next long ones',
      `{"a":"\\n","skip":"${long}","keep":"${long}","b":["${long}","${long}\\t"]}`,
    ],
    ['a pretty-printed document', JSON.stringify({ skip: [long, { deep: long }], keep: { nodeID: long, x: 1 } }, null, 2)],
    ['a document ending in a newline', `{"skip":"${long}","keep":"${long}"}\n`],
  ])('reads %s as JSON.parse does', (_, text) => {
    const projection: Projection = { keep: true, b: true };
    expect(projectJson(Buffer.from(text), new CompiledProjection(projection))).toStrictEqual(reference(JSON.parse(text), projection));
  });

  it('hands out equal strings read again as the same text, and different ones as their own', () => {
    const projection = new CompiledProjection({ '*': { weight: true } });
    const ids = Array.from({ length: 5000 }, (_, index) => `NodeID-${index.toString(36).padStart(40, 'q')}`);
    const text = JSON.stringify(Object.fromEntries(ids.map((id, index) => [id, { weight: String(index * 1_000_000_000) }])));
    for (let round = 0; round < 2; round++) expect(projectJson(Buffer.from(text), projection)).toStrictEqual(JSON.parse(text));
  });
});
