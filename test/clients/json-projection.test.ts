import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ArrayColumns, columnsOf, CompiledProjection, NOT_JSON, projectJson, type Projection } from '../../src/clients/json-projection.js';
import { reference } from '../helpers/json-reference.js';

const project = (text: string, projection: Projection) => projectJson(Buffer.from(text, 'utf8'), new CompiledProjection(projection));

const PEERS: Projection = {
  result: { numPeers: true, peers: [{ nodeID: true, version: true, observedUptime: true, benched: true }] },
  error: true,
};

describe('projectJson: a field-only read of a JSON document', () => {
  it.each<[string, string, Projection]>([
    ['a peers answer', peersAnswer(), PEERS],
    ['the whole document kept', peersAnswer(), true],
    [
      'a map of entries by key',
      '{"NodeID-A":{"publicKey":"0x01","weight":"2"},"NodeID-B":{"weight":"3","x":[1,{"y":null}]}}',
      { '*': { weight: true } },
    ],
    [
      'a listed key beside the map',
      '{"validators":{"NodeID-A":2000},"NodeID-B":{"weight":"1"}}',
      { validators: true, '*': { weight: true } },
    ],
    [
      'escapes in keys and values',
      '{"n\\u006fdeID":"a\\"b\\\\c\\/\\n\\u00e9","version":"\\ud83d\\ude00"}',
      { nodeID: true, version: true },
    ],
    ['text beyond ASCII', '{"nodeID":"Nöde-ß","other":"日本"}', { nodeID: true }],
    ['numbers of every form', '{"a":[0,-0,1.5,-2e3,3E+2,4e-2,123456789012345678901234567890,1e999]}', { a: true }],
    ['literals and empty containers', '{"a":true,"b":false,"c":null,"d":{},"e":[],"f":""}', true],
    ['whitespace everywhere', ' \n\t{ "a" : [ 1 , { "b" : "c" } ] , "d" : 2 }\r\n ', { a: [{ b: true }] }],
    ['a duplicate key: the last wins', '{"a":1,"a":2,"b":{"c":1},"b":{"c":3}}', { a: true, b: { c: true } }],
    ['an array where an object is projected: kept whole', '{"result":[{"a":1}]}', { result: { a: true } }],
    ['an object where an array is projected: kept whole', '{"peers":{"0":{"nodeID":"x","ip":"y"}}}', { peers: [{ nodeID: true }] }],
    ['a string where an array is projected: kept as sent', '{"peers":"none"}', { peers: [{ nodeID: true }] }],
  ])('reads %s as JSON.parse does, keeping only the projected parts', (_, text, projection) => {
    expect(project(text, projection)).toStrictEqual(reference(JSON.parse(text), projection));
  });

  const fixtures = new URL('../fixtures/avalanchego/', import.meta.url);
  const recorded = readdirSync(fixtures, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .flatMap((version) =>
      readdirSync(new URL(`${version}/`, fixtures)).map((file) => [
        `${version}/${file}`,
        readFileSync(new URL(`${version}/${file}`, fixtures), 'utf8'),
      ]),
    );
  it.each(recorded)('reads the recorded answer %s whole as JSON.parse does', (_, text) => {
    expect(project(text, true)).toStrictEqual(JSON.parse(text));
  });

  it('keeps a "__proto__" key as an own field, as JSON.parse does, never as the prototype', () => {
    const text = '{"__proto__":{"weight":"1"},"NodeID-A":{"weight":"2"}}';
    const read = project(text, { '*': { weight: true } }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read)).toEqual(['__proto__', 'NodeID-A']);
    expect(project('{"__proto__":{"x":1}}', true)).toStrictEqual(JSON.parse('{"__proto__":{"x":1}}'));
  });

  it('skips the unprojected parts without making them: a field left out is absent', () => {
    const read = project('{"result":{"numPeers":"1","peers":[{"nodeID":"N","ip":"1.2.3.4:9651","supportedACPs":[23,24]}]}}', PEERS);
    expect(read).toStrictEqual({ result: { numPeers: '1', peers: [{ nodeID: 'N' }] } });
  });

  it.each([
    ['an empty body', ''],
    ['a truncated body', peersAnswer().slice(0, 400)],
    ['an HTML page', '<html><body>502 Bad Gateway</body></html>'],
    ['plain text', 'upstream connect error'],
    ['a trailing comma', '{"a":1,}'],
    ['a missing comma', '[1 2]'],
    ['a leading zero', '{"a":01}'],
    ['a bare minus', '[-]'],
    ['a fraction without digits', '[1.]'],
    ['an unknown escape', '{"a":"\\x"}'],
    ['a short \\u escape', '{"a":"\\u12"}'],
    ['a raw control character in a string', '{"a":"tab\there"}'],
    ['a misspelt literal', '{"a":tru}'],
    ['single quotes', "{'a':1}"],
    ['two documents', '{"a":1}{"b":2}'],
    ['an unterminated string in a skipped part', '{"ip":"1.2.3.4}'],
  ])('says %s is not JSON, as JSON.parse refuses it', (_, text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(project(text, PEERS)).toBe(NOT_JSON);
    expect(project(text, true)).toBe(NOT_JSON);
  });

  it('leaves nesting deeper than any answer to its caller (which reads the text with JSON.parse), never to the stack', () => {
    expect(project(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, true)).toBe(NOT_JSON);
    expect(project(`{"skipped":${'[{"a":'.repeat(600)}1${'}]'.repeat(600)},"nodeID":"N"}`, { nodeID: true })).toBe(NOT_JSON);
    expect(project(`{"skipped":${'[{"a":'.repeat(200)}1${'}]'.repeat(200)},"nodeID":"N"}`, { nodeID: true })).toStrictEqual({
      nodeID: 'N',
    });
  });
});

describe('projectJson with columnsOf: an array of objects read as a column per field', () => {
  const COLUMNS = new CompiledProjection({ result: { peers: columnsOf('nodeID', 'version', 'observedUptime', 'benched') } });
  const peersOf = (text: string) => (projectJson(Buffer.from(text), COLUMNS) as { result: { peers: ArrayColumns } }).result.peers;

  it('gives each field its elements values, as JSON.parse reads them, and no object per element', () => {
    const text = peersAnswer();
    const peers = peersOf(text);
    const parsed = JSON.parse(text).result.peers as Array<Record<string, unknown>>;
    expect(peers).toBeInstanceOf(ArrayColumns);
    expect(peers.length).toBe(30);
    expect(peers.misfit).toBeUndefined();
    for (const field of ['nodeID', 'version', 'observedUptime', 'benched'])
      expect(Array.from(peers.column(field))).toStrictEqual(parsed.map((peer) => peer[field]));
    expect(() => peers.column('ip')).toThrow(/ip is not a column/);
  });

  it('reads a field an element lacks as undefined, a key given twice as its last value, and escaped keys by their text', () => {
    const peers = peersOf('{"result":{"peers":[{"version":"v1"},{"nodeID":"a","nodeID":"b","x":{"nodeID":"c"}},{"n\\u006fdeID":"d"},{}]}}');
    expect(Array.from(peers.column('nodeID'))).toStrictEqual([undefined, 'b', 'd', undefined]);
    expect(Array.from(peers.column('version'))).toStrictEqual(['v1', undefined, undefined, undefined]);
  });

  it('gives every empty array one shared frozen array, for readers that read and never change it', () => {
    const benched = peersOf('{"result":{"peers":[{"benched":[]},{"benched":[ ]},{"benched":["C"]}]}}').column('benched');
    expect(benched[0]).toStrictEqual([]);
    expect(benched[1]).toBe(benched[0]);
    expect(Object.isFrozen(benched[0])).toBe(true);
    expect(benched[2]).toStrictEqual(['C']);
  });

  it('holds nothing of a longer array read before, and reads one as long as the last without growing it', () => {
    expect(peersOf(peersAnswer()).length).toBe(30);
    const shorter = peersOf('{"result":{"peers":[{"nodeID":"a"},{"version":"v"}]}}');
    expect(shorter.length).toBe(2);
    expect(Array.from(shorter.column('nodeID'))).toStrictEqual(['a', undefined]);
    expect(shorter.column('version').length).toBe(2);
    expect(peersOf('{"result":{"peers":[]}}').length).toBe(0);
    // Past the rows columns are sized for before reading, and back.
    const many = Array.from({ length: 25_000 }, (_, index) => (index % 3 === 0 ? {} : { nodeID: `n${index}` }));
    const long = peersOf(JSON.stringify({ result: { peers: many } }));
    expect(Array.from(long.column('nodeID'))).toStrictEqual(many.map((peer) => peer.nodeID));
    expect(peersOf(peersAnswer()).column('nodeID').length).toBe(30);
  });

  it('names the first element that is not an object, keeps what is not an array as sent, and refuses what is not JSON', () => {
    const peers = peersOf('{"result":{"peers":[{"nodeID":"a"},"x",null,[1]]}}');
    expect(peers.length).toBe(4);
    expect(peers.misfit).toStrictEqual({ index: 1, value: 'x' });
    expect(project('{"peers":{"0":{"nodeID":"x"}}}', { peers: columnsOf('nodeID') })).toStrictEqual({ peers: { '0': { nodeID: 'x' } } });
    expect(project('{"peers":"none"}', { peers: columnsOf('nodeID') })).toStrictEqual({ peers: 'none' });
    for (const text of [
      '{"result":{"peers":[{"nodeID":"a"} {"nodeID":"b"}]}}',
      '{"result":{"peers":[{"nodeID" "a"}]}}',
      '{"result":{"peers":[{"nodeID":"a",}]}}',
      '{"result":{"peers":[{"nodeID":"a"},]}}',
    ])
      expect(projectJson(Buffer.from(text), COLUMNS), text).toBe(NOT_JSON);
  });
});

/** An info.peers answer as AvalancheGo v1.14 sends one, 30 peers. */
function peersAnswer(): string {
  const peers = Array.from({ length: 30 }, (_, index) => ({
    ip: `198.51.100.${index}:9651`,
    publicIP: `198.51.100.${index}:9651`,
    nodeID: `NodeID-${'abcdefghij'[index % 10]}${index}`,
    version: `avalanchego/1.14.${index % 3}`,
    upgradeTime: 1763568000,
    lastSent: '2026-11-22T00:00:00.123456789Z',
    lastReceived: '2026-11-22T00:00:00Z',
    observedUptime: String(90 + (index % 11)),
    trackedSubnets: index % 4 === 0 ? ['2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM'] : [],
    supportedACPs: [23, 24, 25, 30, 31, 41, 62, 77, 103, 118, 125, 131, 151, 176],
    objectedACPs: [],
    benched: index % 7 === 0 ? ['C'] : [],
  }));
  return JSON.stringify({ jsonrpc: '2.0', result: { numPeers: String(peers.length), peers }, id: 1 });
}
