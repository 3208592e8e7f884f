import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closest } from '../../src/config/did-you-mean.js';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError, formatConfigIssue } from '../../src/errors.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-typo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function issuesOf(yaml: string): string[] {
  try {
    parseConfig(yaml, { env: {} });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map(formatConfigIssue);
    throw error;
  }
  return [];
}

describe('did you mean', () => {
  it('picks the nearest candidate for a typo, a swap, or the one a prefix begins, and none for a stranger', () => {
    expect(closest('ulr', ['url', 'name', 'headers'])).toBe('url');
    expect(closest('intervl', ['interval', 'timeout'])).toBe('interval');
    expect(closest('config', ['config.file', 'web.config.file'])).toBe('config.file');
    expect(closest('zzzzzz', ['url', 'name'])).toBeUndefined();
  });

  it('a misspelt config key names the key meant, in one line instead of the missing key too', () => {
    expect(issuesOf('targets:\n  - name: a\n    ulr: http://127.0.0.1:9650\n')).toEqual(['targets[0].ulr: unknown key; did you mean url?']);
    expect(issuesOf('global: { intervl: 5s }\ntargets: [{ name: a, url: "http://127.0.0.1:9650" }]\n')).toEqual([
      'global.intervl: unknown key; did you mean interval?',
    ]);
    expect(
      issuesOf(
        'targets: [{ name: a, url: "http://127.0.0.1:9650", collectors: { peers: { intervall: 5s } } }]\n' +
          'alerts: { receivers: [{ name: x, type: webhook, url: "http://127.0.0.1:1/", sendresolved: true }] }\n',
      ),
    ).toEqual([
      'targets[0].collectors.peers.intervall: unknown key; did you mean interval?',
      'alerts.receivers[0].sendresolved: unknown key; did you mean send_resolved?',
    ]);
  });

  it('check-config prints the suggestion', () => {
    const file = join(dir, 'typo.yaml');
    writeFileSync(file, 'targets:\n  - name: a\n    ulr: http://127.0.0.1:9650\n');
    const result = spawnSync(process.execPath, [MAIN, 'check-config', file], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('targets[0].ulr: unknown key; did you mean url?\n');
  });

  it.each([
    ['--config=x', 'avaxmon: unknown flag --config; did you mean --config.file?'],
    ['--web.listen-adress=:1', 'avaxmon: unknown flag --web.listen-adress; did you mean --web.listen-address?'],
    ['--config.file', 'avaxmon: --config.file needs a value: --config.file=VALUE'],
    ['check-confg', 'avaxmon: unknown command "check-confg"; did you mean check-config?'],
  ])('%s: one line in words, not the library text and the whole usage', (argument, line) => {
    const result = spawnSync(process.execPath, [MAIN, argument], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`${line} (avaxmon --help lists the commands and flags)\n`);
  });
});
