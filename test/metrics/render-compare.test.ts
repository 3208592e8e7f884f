import { describe, expect, it } from 'vitest';
import { renderSamples } from '../../src/metrics/exposition.js';
import type { Sample } from '../../src/metrics/metric-desc.js';

/** Label values a slice may hold: plain, escaped, past ASCII, and what looks like one's UTF-8 bytes. */
const VALUES = ['a', 'node-1', 'x"y', 'back\\slash', 'two\nlines', 'é', 'Ã©', '', '{}', 'a,b="c"'];
const NAMES = ['avaxmon_node_peers', 'avaxmon_node_info', 'avaxmon_rpc_requests_total'];

function randomSlice(random: () => number): Sample[] {
  const samples: Sample[] = [];
  const count = Math.floor(random() * 6);
  for (let index = 0; index < count; index++) {
    const labels: Record<string, string> = {};
    const labelCount = Math.floor(random() * 3);
    for (let label = 0; label < labelCount; label++)
      labels[['target', 'method', 'version'][label]] = VALUES[Math.floor(random() * VALUES.length)];
    const values = [
      0,
      -0,
      1,
      10,
      -1.5,
      2 ** 53,
      2 ** 53 - 1,
      -123_456_789,
      1e21,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      0.1 + 0.2,
    ];
    samples.push({ name: NAMES[Math.floor(random() * NAMES.length)], labels, value: values[Math.floor(random() * values.length)] });
  }
  return samples;
}

/** A small seeded generator: the same cases at every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('a slice rendered against its previous rendering', () => {
  it('is the previous rendering itself exactly when the lines are the same, and the new lines otherwise', () => {
    const random = seeded(47);
    const outcomes = { same: 0, changed: 0 };
    for (let round = 0; round < 5_000; round++) {
      const samples = randomSlice(random);
      const previous = renderSamples(samples);
      // The same samples again as fresh objects; a value or a label moved; a line gone or added; another slice.
      const next = structuredClone(samples);
      const at = Math.floor(random() * next.length);
      const pick = random();
      if (next.length === 0 || pick < 0.3) {
        if (pick < 0.1) next.splice(0, next.length, ...randomSlice(random));
      } else if (pick < 0.45) next[at] = { ...next[at], value: next[at].value + 1 };
      else if (pick < 0.6) next[at] = { ...next[at], labels: { target: VALUES[round % VALUES.length] } };
      else if (pick < 0.75) next.splice(at, 1);
      else if (pick < 0.9) next.splice(at, 0, { ...next[at], value: 7 });
      const again = renderSamples(next, previous);
      const fresh = renderSamples(next);
      const equal =
        fresh.buffer.equals(previous.buffer) && fresh.names.join() === previous.names.join() && fresh.ends.join() === previous.ends.join();
      outcomes[equal ? 'same' : 'changed'] += 1;
      expect(again === previous).toBe(equal);
      expect(again.buffer.equals(fresh.buffer)).toBe(true);
      expect(again.ends).toEqual(fresh.ends);
      expect(again.names).toEqual(fresh.names);
    }
    expect(outcomes.same).toBeGreaterThan(1_000);
    expect(outcomes.changed).toBeGreaterThan(1_000);
  });

  it('tells a label value past ASCII from the characters of its UTF-8 bytes', () => {
    const previous = renderSamples([{ name: 'avaxmon_node_info', labels: { version: 'é' }, value: 1 }]);
    const next = renderSamples([{ name: 'avaxmon_node_info', labels: { version: 'Ã©' }, value: 1 }], previous);
    expect(next).not.toBe(previous);
    expect(next.buffer.toString()).toBe('avaxmon_node_info{version="Ã©"} 1\n');
  });

  it('renders labels as their own keys only, whatever the labels object inherits', () => {
    const previous = renderSamples([{ name: 'avaxmon_node_info', labels: { target: 'a', version: 'v1' }, value: 1 }]);
    const inheriting = Object.assign(Object.create({ version: 'v1' }) as Record<string, string>, { target: 'a' });
    const next = renderSamples([{ name: 'avaxmon_node_info', labels: inheriting, value: 1 }], previous);
    expect(next.buffer.toString()).toBe('avaxmon_node_info{target="a"} 1\n');
  });
});
