import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, also run by hand (node scripts/import-cycles.mjs)
import { findCycles, importGraph } from '../scripts/import-cycles.mjs';

describe('src/ module graph', () => {
  it('has no import cycles (type-only imports included)', () => {
    const cycles = findCycles(importGraph(fileURLToPath(new URL('../src', import.meta.url)))) as string[][];
    expect(cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('the detector finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(findCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
