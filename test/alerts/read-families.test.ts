import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALERT_READ_FAMILIES } from '../../src/alerts/evaluation/read-families.js';
import type { AlertRule } from '../../src/alerts/evaluation/rule.js';
import { catalogue } from '../../src/metrics/catalogue/index.js';

const RULES_DIR = new URL('../../src/alerts/evaluation/rules/', import.meta.url);
const metricNamesIn = (source: string) => new Set(source.match(/'avaxmon_[a-z0-9_]+'/g)?.map((quoted) => quoted.slice(1, -1)) ?? []);
const declaredBy = (rule: AlertRule) => [
  ...rule.sources.map((source) => source.metric),
  ...(rule.fleetReads ?? []),
  ...(rule.alsoReads ?? []),
];

/**
 * The daemon keeps samples only of the families some rule declares it reads; a family a rule reads
 * without declaring it would look absent to that rule. So every metric name a rule's module spells
 * must be declared by a rule of that module.
 */
describe('the families the alert plane reads', () => {
  const modules = readdirSync(RULES_DIR).filter((file) => file.endsWith('.ts') && file !== 'index.ts' && file !== 'series-rule.ts');

  it.each(modules)('%s declares every family it reads', async (file) => {
    const module = (await import(new URL(file, RULES_DIR).href)) as Record<string, unknown>;
    const rules = Object.values(module).filter(
      (value): value is AlertRule => typeof value === 'object' && value !== null && 'sources' in value,
    );
    expect(rules.length).toBeGreaterThan(0);
    const declared = new Set(rules.flatMap(declaredBy));
    const undeclared = [...metricNamesIn(readFileSync(new URL(file, RULES_DIR), 'utf8'))].filter((name) => !declared.has(name));
    expect(undeclared).toEqual([]);
    for (const name of declared) expect(ALERT_READ_FAMILIES.has(name), name).toBe(true);
  });

  it('includes what the engine reads for every alert, and names only catalogued families', () => {
    for (const file of ['../../src/alerts/evaluation/engine.ts', '../../src/alerts/evaluation/collector-health.ts']) {
      for (const name of metricNamesIn(readFileSync(new URL(file, import.meta.url), 'utf8')))
        expect(ALERT_READ_FAMILIES.has(name), name).toBe(true);
    }
    expect([...ALERT_READ_FAMILIES].filter((name) => !catalogue.has(name))).toEqual([]);
  });

  it('is a small part of what a node exports', () => {
    expect(ALERT_READ_FAMILIES.size).toBeLessThan(catalogue.size / 2);
  });
});
