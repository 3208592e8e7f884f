import { describe, expect, it } from 'vitest';
import { FLEET_FAMILIES } from '../../src/alerts/evaluation/read-families.js';
import { ruleRegistry } from '../../src/alerts/evaluation/rules/index.js';
import { SampleIndex } from '../../src/alerts/evaluation/sample-index.js';
import type { Sample } from '../../src/metrics/metric-desc.js';

/** Two targets of one network whose chain moved on one of them: enough for the chain rule to read everything it reads. */
const samples: Sample[] = ['node-a', 'node-b'].flatMap((target, index): Sample[] => [
  { name: 'avaxmon_node_network_id', labels: { target }, value: 1 },
  { name: 'avaxmon_chain_height', labels: { target, chain: 'X' }, value: 40 + index },
  { name: 'avaxmon_chain_last_progress_timestamp_seconds', labels: { target, chain: 'X' }, value: 1_000 + index * 600 },
  { name: 'avaxmon_collector_last_success_timestamp_seconds', labels: { target, collector: 'chain_progress' }, value: 1_600 },
]);

describe('the fleet tick gives fleet-wide rules every family they read', () => {
  // The daemon's fleet tick hands these rules only FLEET_FAMILIES: a family read but not declared is
  // silently missing there, although a test that hands a rule every sample passes.
  for (const [name, rule] of [...ruleRegistry].filter(([, rule]) => rule.fleetReads !== undefined)) {
    it(`${name} reads only declared fleet families`, () => {
      const index = new SampleIndex(samples);
      index.reads = new Set();
      const params = Object.fromEntries(Object.entries(rule.params ?? {}).map(([key, param]) => [key, param.default as number]));
      rule.evaluate({ samples: index, nowMs: 1_700_000, params, memory: new Map(), collectors: undefined } as never);
      expect([...index.reads].filter((family) => !FLEET_FAMILIES.has(family))).toEqual([]);
    });
  }
});
