import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { CollectContext, TargetFacts } from '../../src/collectors/collector.js';
import { validatorWeights } from '../../src/collectors/validator-weights.js';

/** A target whose node answers platform.getValidatorsAt with `set` (v1.15's shape). */
function targetAnswering(name: string, set: Record<string, number>): CollectContext & { facts: TargetFacts } {
  const answer = Object.fromEntries(Object.entries(set).map(([nodeId, weight]) => [nodeId, { weight: String(weight) }]));
  const node = {
    call: async (_path: string, method: string) => (method === 'platform.getHeight' ? { height: '100' } : answer),
    callProjected: async () => answer,
  };
  return {
    target: { name },
    node,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    nowMs: Date.now(),
    memory: new Map(),
    facts: { unavailableMethods: new Set() },
  } as unknown as CollectContext & { facts: TargetFacts };
}

describe('validator weights', () => {
  it('are held once for the targets that answer the same set, and apart for a target that answers another', async () => {
    const set = { 'NodeID-A': 2_000, 'NodeID-B': 3_000 };
    const [a, b, other] = [
      targetAnswering('a', set),
      targetAnswering('b', { ...set }),
      targetAnswering('c', { ...set, 'NodeID-B': 3_001 }),
    ];
    const weightsA = await validatorWeights(a);
    const weightsB = await validatorWeights(b);
    const weightsOther = await validatorWeights(other);
    expect(weightsB).toBe(weightsA);
    expect(b.facts.validatorWeights?.weights).toBe(weightsA);
    expect(weightsOther).not.toBe(weightsA);
    expect(weightsOther?.get('NodeID-B')).toBe(3_001);
    expect(weightsA?.get('NodeID-B')).toBe(3_000);
  });
});
