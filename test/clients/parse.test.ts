import { describe, expect, it } from 'vitest';
import { columnsOf, CompiledProjection, projectJson } from '../../src/clients/json-projection.js';
import { FieldReader } from '../../src/clients/parse.js';
import { UpstreamError } from '../../src/errors.js';

const read = new FieldReader('node-a', 'platform.getCurrentValidators');

/** The error a reader throws, or undefined when it accepted the value. */
function refusal(run: () => unknown): UpstreamError | undefined {
  try {
    run();
  } catch (error) {
    return error as UpstreamError;
  }
  return undefined;
}

describe('FieldReader: every field read by its type', () => {
  it.each<[string, () => unknown]>([
    ['a string with a unit where a number belongs', () => read.number('12x', 'result.weight')],
    ['a hex string where a decimal belongs', () => read.number('0x10', 'result.weight')],
    ['an empty string where a number belongs', () => read.number('', 'result.weight')],
    ['a padded number', () => read.number(' 12 ', 'result.weight')],
    ['digits and a space', () => read.number('12 ', 'result.weight')],
    ['digits with a plus sign', () => read.number('+12', 'result.weight')],
    ['a number beyond float range', () => read.number('1e999', 'result.weight')],
    ['a boolean where a number belongs', () => read.number(true, 'result.weight')],
    ['"true" where a boolean belongs', () => read.boolean('true', 'result.connected')],
    ['1 where a boolean belongs', () => read.boolean(1, 'result.connected')],
    ['a number where a string belongs', () => read.string(12, 'result.nodeID')],
    ['null where a string belongs', () => read.string(null, 'result.nodeID')],
    ['a string where an object belongs', () => read.object('{}', 'result')],
    ['an object where an array belongs', () => read.array({}, 'result.validators')],
    ['a fraction of nAVAX', () => read.navaxToAvax('1.5', 'result.stakeAmount')],
    ['a negative amount of nAVAX', () => read.navaxToAvax('-1', 'result.stakeAmount')],
    ['a time that is not one', () => read.timestampSeconds('soon', 'result.startTime')],
    ['NaN as a time', () => read.timestampSeconds(Number.NaN, 'result.startTime')],
    ['a present optional field of the wrong type', () => read.optional('12x', 'result.uptime', read.number)],
  ])('refuses %s, naming the upstream, the method and the path', (_, run) => {
    const error = refusal(run);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error!.outcome).toBe('bad_body');
    expect(error!.message).toMatch(/^node-a platform\.getCurrentValidators: result(\.\w+)?: expected /);
  });

  it('accepts the encodings AvalancheGo uses', () => {
    expect(read.number('18446744073709551615', 'a')).toBe(18446744073709551615);
    expect(read.number(42, 'a')).toBe(42);
    expect(read.number('99.9812', 'a')).toBe(99.9812);
    // Whole numbers are read without the pattern: the same values, and the same refusals.
    expect(read.number('99', 'a')).toBe(99);
    expect(read.number('007', 'a')).toBe(7);
    expect(read.number('999999999999999', 'a')).toBe(999_999_999_999_999);
    expect(read.number('9999999999999999', 'a')).toBe(9_999_999_999_999_999);
    expect(read.number('-5', 'a')).toBe(-5);
    expect(read.number('1e3', 'a')).toBe(1000);
    expect(read.boolean(false, 'a')).toBe(false);
    expect(read.navaxToAvax('2000000000123', 'a')).toBe(2000.000000123);
    expect(read.timestampSeconds('1700000000', 'a')).toBe(1_700_000_000);
    expect(read.timestampSeconds('2024-01-01T00:00:00.123456789Z', 'a')).toBe(1_704_067_200.123);
    expect(read.optional(undefined, 'a', read.number)).toBeUndefined();
    expect(read.optional(null, 'a', read.number)).toBeUndefined();
    expect(read.optional('7', 'a', read.number)).toBe(7);
  });
});

describe('FieldReader.columns and eachRow: one reader for every row of an array read as columns', () => {
  const columnsOfPeers = (text: string) =>
    (projectJson(Buffer.from(text), new CompiledProjection({ peers: columnsOf('nodeID') })) as { peers: unknown }).peers;

  it('names the row being read by its index', () => {
    const peers = read.columns(columnsOfPeers('{"peers":[{"nodeID":"a"},{"nodeID":"b"},{"nodeID":3},{}]}'), 'peers');
    expect(peers.length).toBe(4);
    const nodeIds = peers.column('nodeID');
    const seen: string[] = [];
    const error = refusal(() =>
      read.within('result').eachRow(peers, 'peers', (row, entry) => seen.push(entry.string(nodeIds[row], 'nodeID'))),
    );
    expect(seen).toEqual(['a', 'b']);
    expect(error!.message).toBe('node-a platform.getCurrentValidators: result.peers[2].nodeID: expected a string, got 3');
  });

  it('refuses an array with an entry that is not an object, and anything but an array, as a read of objects would', () => {
    expect(refusal(() => read.columns(columnsOfPeers('{"peers":[{"nodeID":"a"},"x",7]}'), 'peers'))!.message).toMatch(
      /: peers\[1\]: expected an object, got "x"$/,
    );
    expect(refusal(() => read.columns(columnsOfPeers('{"peers":{}}'), 'peers'))!.message).toMatch(/: peers: expected an array, got \{\}$/);
    expect(refusal(() => read.columns([], 'peers'))!.message).toMatch(/: peers: expected an array, got \[\]$/);
  });
});
