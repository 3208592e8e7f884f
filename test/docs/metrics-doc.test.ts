import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allMetrics, catalogue } from '../../src/metrics/catalogue/index.js';

const doc = readFileSync(new URL('../../docs/metrics.md', import.meta.url), 'utf8');
const FORBIDDEN_LABELS = ['type', 'le', 'quantile', 'job', 'instance'];

describe('docs/metrics.md and the catalogue', () => {
  it('documents every catalogue metric in a table row', () => {
    const undocumented = allMetrics.filter((desc) => !doc.includes(`| \`${desc.name}\` |`)).map((desc) => desc.name);
    expect(undocumented).toEqual([]);
  });

  it('mentions no metric the catalogue lacks', () => {
    const mentioned = new Set(doc.match(/\bavaxmon_[a-z0-9_]+/g) ?? []);
    const unknown = [...mentioned].filter((name) => !catalogue.has(name) && !name.endsWith('_'));
    expect(unknown).toEqual([]);
  });
});

describe('the catalogue follows the Prometheus conventions', () => {
  it.each(allMetrics.map((desc) => [desc.name, desc] as const))('%s', (_, desc) => {
    expect(desc.name).toMatch(/^avaxmon_[a-z0-9_]+$/);
    expect(desc.name.endsWith('_total')).toBe(desc.type === 'counter');
    expect(desc.name).not.toMatch(/_percent(age)?$/);
    if (desc.name.endsWith('_info')) expect(desc.type).toBe('gauge');
    expect(desc.help.length).toBeGreaterThan(10);
    for (const label of desc.labels) expect(FORBIDDEN_LABELS).not.toContain(label);
  });

  it('has unique names', () => {
    expect(catalogue.size).toBe(allMetrics.length);
  });
});
