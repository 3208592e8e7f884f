import { describe, expect, it } from 'vitest';
import { renderSamples } from '../../src/metrics/exposition.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { sharedNameList } from '../../src/metrics/shared-name-lists.js';

const healthSlice = (target: string, value: number): Sample[] => [
  { name: 'avaxmon_health_check_passing', labels: { target, check: 'network' }, value },
  { name: 'avaxmon_health_check_contiguous_failures', labels: { target, check: 'network' }, value: 1 - value },
];

describe('family-name lists', () => {
  it('are one array for every node slice holding the same families, and another for other families', () => {
    const first = renderSamples(healthSlice('node-1', 1));
    const second = renderSamples(healthSlice('node-2', 0));
    expect(second.names).toBe(first.names);
    expect(renderSamples(healthSlice('node-3', 1).reverse()).names).not.toBe(first.names);
    expect(renderSamples(healthSlice('node-3', 1).slice(0, 1)).names).toEqual(['avaxmon_health_check_passing']);
  });

  it('keep a changed slice on its previous list, and its ends sized to its families', () => {
    const previous = renderSamples(healthSlice('node-4', 1));
    const changed = renderSamples(healthSlice('node-4', 0), previous);
    expect(changed).not.toBe(previous);
    expect(changed.names).toBe(previous.names);
    expect(changed.ends).toHaveLength(2);
    expect(changed.ends[1]).toBe(changed.buffer.length);
  });

  it('are shared only when equal', () => {
    const list = sharedNameList(['avaxmon_a', 'avaxmon_b']);
    expect(sharedNameList(['avaxmon_a', 'avaxmon_b'])).toBe(list);
    expect(sharedNameList(['avaxmon_a', 'avaxmon_c'], list)).toEqual(['avaxmon_a', 'avaxmon_c']);
  });
});
