import { describe, expect, it } from 'vitest';
import { RuleMemories } from '../../src/alerts/evaluation/rule-memories.js';

describe('RuleMemories', () => {
  it('keeps what a rule remembers per rule and scope, until the rule empties it', () => {
    const memories = new RuleMemories();
    memories.of('AvalancheUptimeDropping', 'node-1').set('peak', 0.99);
    memories.dropIfEmpty('AvalancheUptimeDropping', 'node-1');
    expect(memories.of('AvalancheUptimeDropping', 'node-1').get('peak')).toBe(0.99);
    expect(memories.of('AvalancheUptimeDropping', 'node-2').size).toBe(0);
    expect(memories.of('AvaxmonCollectorFailing', 'node-1').size).toBe(0);

    const emptied = memories.of('AvalancheUptimeDropping', 'node-1');
    emptied.clear();
    memories.dropIfEmpty('AvalancheUptimeDropping', 'node-1');
    expect(memories.of('AvalancheUptimeDropping', 'node-1')).not.toBe(emptied);
  });
});
