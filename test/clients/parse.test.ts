import { describe, expect, it } from 'vitest';
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
    expect(read.boolean(false, 'a')).toBe(false);
    expect(read.navaxToAvax('2000000000123', 'a')).toBe(2000.000000123);
    expect(read.timestampSeconds('1700000000', 'a')).toBe(1_700_000_000);
    expect(read.timestampSeconds('2024-01-01T00:00:00.123456789Z', 'a')).toBe(1_704_067_200.123);
    expect(read.optional(undefined, 'a', read.number)).toBeUndefined();
    expect(read.optional(null, 'a', read.number)).toBeUndefined();
    expect(read.optional('7', 'a', read.number)).toBe(7);
  });
});

describe('FieldReader.each: one reader for every entry of an array', () => {
  it('names the entry being read, and a non-object entry, by their index', () => {
    const peers = [{ nodeID: 'a' }, { nodeID: 'b' }, { nodeID: 3 }, 'x'];
    const seen: string[] = [];
    const error = refusal(() =>
      read.within('result').each(peers, 'peers', (fields, entry) => seen.push(entry.string(fields.nodeID, 'nodeID'))),
    );
    expect(seen).toEqual(['a', 'b']);
    expect(error!.message).toBe('node-a platform.getCurrentValidators: result.peers[2].nodeID: expected a string, got 3');
    expect(refusal(() => read.each(peers.slice(3), 'peers', () => undefined))!.message).toMatch(
      /: peers\[0\]: expected an object, got "x"$/,
    );
    expect(refusal(() => read.each({}, 'peers', () => undefined))!.message).toMatch(/: peers: expected an array, got \{\}$/);
  });
});
