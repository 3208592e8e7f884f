import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ruleRegistry } from '../../src/alerts/evaluation/rules/index.js';

const SCRIPT = new URL('../../scripts/generate-rules-doc.mjs', import.meta.url).pathname;

describe("docs/alerting.md's rules table", () => {
  it('is generated from the rule definitions and checked in up to date', () => {
    const check = spawnSync(process.execPath, [SCRIPT, '--check'], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });

  it('has a row for every built-in rule, with its for and settings', () => {
    const doc = readFileSync(new URL('../../docs/alerting.md', import.meta.url), 'utf8');
    for (const rule of ruleRegistry.values()) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${rule.name}\` |`));
      expect(row, rule.name).toContain(`| ${rule.defaultFor} |`);
      for (const param of Object.keys(rule.params)) expect(row, `${rule.name}.${param}`).toContain(`\`${param}: `);
    }
  });
});
