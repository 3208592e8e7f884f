import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { issuesOf } from '../helpers/config-issues.js';

describe('config', () => {
  it('accepts the documented contract and fills defaults', () => {
    const config = parseConfig(
      `
global: { interval: 15s, timeout: 5s }
targets:
  - name: validator-1
    url: http://127.0.0.1:9650
    health_tags: [29uVeLPJB1eQJkzRemU8g8wZDw5uJRqpab5U2mX9euieVwiEbL]
    headers: { Authorization: "Bearer \${NODE_TOKEN}" }
    collectors:
      peers: { interval: 30s }
      upgrades: { enabled: false }
`,
      { env: { NODE_TOKEN: 'token-123' } },
    );
    expect(config.global).toMatchObject({ interval: 15_000, timeout: 5_000 });
    const target = config.targets[0];
    expect(target.headers.Authorization).toBe('Bearer token-123');
    expect(target.collectors.peers.interval).toBe(30_000);
    expect(target.collectors.upgrades.enabled).toBe(false);
    expect(target.validators.node_ids).toEqual(['self']);
  });

  it('parses Go-style durations', () => {
    const config = parseConfig('global: { interval: 1m30s, timeout: 500ms }');
    expect(config.global.interval).toBe(90_000);
    expect(config.global.timeout).toBe(500);
  });

  it('names every bad path, one line each', () => {
    const issues = issuesOf(`
global: { interval: soon }
targets:
  - name: a
    url: ftp://example.com
    collectors: { nosuch: { enabled: true } }
  - name: a
    url: http://127.0.0.1:9650
    surprise: 1
`);
    expect(issues).toContain('targets[0].url: must be an http(s) URL');
    expect(issues).toContain('global.interval: must be a duration like 500ms, 15s, 1m or 1h (got "soon")');
    expect(issues).toContain('targets[1].surprise: unknown key');
  });

  it('rejects duplicate target names', () => {
    expect(issuesOf('targets: [{ name: a, url: "http://x:1" }, { name: a, url: "http://y:1" }]')).toEqual([
      'targets[1].name: duplicate target name "a"',
    ]);
  });

  it('rejects unknown collectors together with the other bad paths', () => {
    const issues = issuesOf('targets: [{ name: a, url: "ftp://x", collectors: { nosuch: {} } }]');
    expect(issues).toHaveLength(2);
    expect(issues).toContain('targets[0].url: must be an http(s) URL');
    expect(issues.find((line) => line.startsWith('targets[0].collectors.nosuch: '))).toMatch(/: unknown collector \(known: health, /);
  });

  it('names a top-level unknown key by its path', () => {
    expect(issuesOf('targts: []')).toEqual(['targts: unknown key; did you mean targets?']);
  });

  it('reports an unset variable once, not again as the invalid value it leaves', () => {
    expect(issuesOf('targets: [{ name: a, url: "${NODE_URL}" }]')).toEqual(['targets[0].url: environment variable NODE_URL is not set']);
  });

  it('reports an unset environment variable by path', () => {
    expect(issuesOf('targets: [{ name: a, url: "http://x:1", headers: { Authorization: "Bearer ${MISSING_TOKEN}" } }]')).toEqual([
      'targets[0].headers.Authorization: environment variable MISSING_TOKEN is not set',
    ]);
  });

  it('reads header values from files and reports unreadable ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-config-'));
    writeFileSync(join(dir, 'token'), 'file-token\n');
    const config = parseConfig(`targets: [{ name: a, url: "http://x:1", header_files: { Authorization: ${join(dir, 'token')} } }]`);
    expect(config.targets[0].headers.Authorization).toBe('file-token');
    expect(issuesOf(`targets: [{ name: a, url: "http://x:1", header_files: { X-Key: ${join(dir, 'absent')} } }]`)[0]).toMatch(
      /^targets\[0\]\.header_files\.X-Key: cannot read secret file .*absent: ENOENT$/,
    );
  });

  it('reports YAML syntax errors', () => {
    expect(issuesOf('targets: [unclosed')[0]).toMatch(/^\(root\): YAML error at line 1, column \d+: /);
  });

  it('rejects a collector timeout longer than its interval', () => {
    expect(issuesOf('targets: [{ name: a, url: "http://x:1", collectors: { peers: { interval: 2s, timeout: 5s } } }]')).toEqual([
      'targets[0].collectors.peers.timeout: must not exceed the collector interval',
    ]);
  });
});
