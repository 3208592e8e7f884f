import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../scripts/generate-rules-index.mjs', import.meta.url).pathname;
const RULES = new URL('../../src/alerts/evaluation/rules/', import.meta.url).pathname;

function check(dir?: string) {
  return spawnSync(process.execPath, [SCRIPT, '--check', ...(dir ? ['--dir', dir] : [])], { encoding: 'utf8' });
}

describe('the rule registry (src/alerts/evaluation/rules/index.ts)', () => {
  it('is generated from the rule files and checked in up to date', () => {
    const result = check();
    expect(result.status, result.stderr).toBe(0);
  });

  it('registers a rule by its file alone: a new rule file makes the committed index stale', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-rules-'));
    cpSync(RULES, dir, { recursive: true });
    expect(check(dir).status).toBe(0);
    writeFileSync(
      join(dir, 'avalanche-example-rule.ts'),
      "export const avalancheExampleRule = seriesRule({ name: 'AvalancheExampleRule' });\n",
    );
    const stale = check(dir);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('index.ts is stale: run npm run generate');
    spawnSync(process.execPath, [SCRIPT, '--dir', dir]);
    const index = readFileSync(join(dir, 'index.ts'), 'utf8');
    expect(index).toContain("import { avalancheExampleRule } from './avalanche-example-rule.js';");
    expect(index).toMatch(/avalancheChainStalled,\n {4}avalancheExampleRule,\n {4}avalancheHealthCheckFailing,/);
    expect(index).not.toContain('series-rule');
  });

  it('refuses a rule file that does not export its rule under the file name, instead of leaving it out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-rules-'));
    cpSync(RULES, dir, { recursive: true });
    writeFileSync(join(dir, 'avalanche-misnamed.ts'), "export const somethingElse = seriesRule({ name: 'AvalancheMisnamed' });\n");
    const result = check(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('avalanche-misnamed.ts: a rule file exports its rule as avalancheMisnamed');
  });
});
