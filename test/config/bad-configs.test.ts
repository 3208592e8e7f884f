import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/load.js';
import { ConfigError, formatConfigIssue } from '../../src/errors.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-bad-configs-'));
const TARGET = 'name: a, url: "http://127.0.0.1:9"';
const secretWithLineBreak = join(dir, 'token-with-crlf');
writeFileSync(secretWithLineBreak, 'Bearer abc\r\nX-Injected: 1\n');

interface BadConfig {
  name: string;
  text: string | Buffer;
  /** Every line the CLI must print, each as a prefix ("path: message start"). */
  expect: string[];
  env?: Record<string, string>;
}

const aliasBomb = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  `targets: [{ ${TARGET} }]`,
].join('\n');

const BAD: BadConfig[] = [
  // The document as a whole
  { name: 'empty file', text: '', expect: ['(root): the config file is empty'] },
  { name: 'only whitespace', text: '\n  \n', expect: ['(root): the config file is empty'] },
  { name: 'only comments', text: '# TODO\n', expect: ['targets: nothing to watch'] },
  { name: 'no targets', text: 'targets: []\n', expect: ['targets: nothing to watch'] },
  { name: 'only global settings', text: 'global: { interval: 30s }\n', expect: ['targets: nothing to watch'] },
  { name: 'top-level list', text: '- a\n- b\n', expect: ['(root): expected a mapping, got a list'] },
  { name: 'top-level string', text: 'hello\n', expect: ['(root): expected a mapping, got a string'] },
  { name: 'top-level number', text: '42\n', expect: ['(root): expected a mapping, got a number'] },
  {
    name: 'binary garbage',
    text: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]),
    expect: ['(root): not a UTF-8 text file (invalid byte at line 1, column 1)'],
  },
  {
    name: 'control characters',
    text: `targets: [{ ${TARGET} }]\n\u0000\u0001\n`,
    expect: ['(root): not a text file (control character U+0000 at line 2, column 1)'],
  },
  // YAML syntax, each with its position
  {
    name: 'alias bomb',
    text: aliasBomb,
    expect: ['(root): YAML error: Excessive alias count indicates a resource exhaustion attack (first alias at line 2, column 8)'],
  },
  { name: 'unresolved alias', text: `targets: *nowhere\n`, expect: ['(root): YAML error: Unresolved alias'] },
  { name: 'unclosed flow mapping', text: 'global: {\n', expect: ['(root): YAML error at line 2, column 1:'] },
  {
    name: 'duplicate key',
    text: `targets: [{ ${TARGET} }]\ntargets: []\n`,
    expect: ['(root): YAML error at line 2, column 1: Map keys must be unique'],
  },
  { name: 'tab indentation', text: 'targets:\n\t- name: a\n', expect: ['(root): YAML error at line 2, column 1:'] },
  // Durations
  {
    name: 'interval beyond any timer',
    text: `global: { interval: 99999999999999999h }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.interval: must be at most 24d'],
  },
  {
    name: 'collector interval beyond a timer',
    text: `targets: [{ ${TARGET}, collectors: { health: { interval: 3000000s } } }]\n`,
    expect: ['targets[0].collectors.health.interval: must be at most 24d'],
  },
  {
    name: 'repeated unit',
    text: `global: { interval: 1s1s }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.interval: must be a duration'],
  },
  {
    name: 'units out of order',
    text: `global: { interval: 30s1m }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.interval: must be a duration'],
  },
  {
    name: 'negative duration',
    text: `global: { timeout: -1s }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.timeout: must be a duration'],
  },
  {
    name: 'unitless duration',
    text: `global: { interval: 15 }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.interval: must be a duration with a unit, like "15s" or "15ms" (got the number 15)'],
  },
  {
    name: 'a node URL with an API path',
    text: 'targets: [{ name: a, url: "http://127.0.0.1:9650/ext/info" }]\n',
    expect: ["targets[0].url: must be the node's base URL (like http://127.0.0.1:9650), without an API path such as /ext/info"],
  },
  {
    name: 'an unreadable url_file, said once',
    text: `targets: [{ ${TARGET} }]\nalerts:\n  receivers: [{ name: h, type: webhook, url_file: /nonexistent/avaxmon-hook }]\n`,
    expect: ['alerts.receivers[0].url_file: cannot read secret file /nonexistent/avaxmon-hook'],
  },
  {
    name: 'a Metrics API section whose requests cannot fit in its interval',
    text: `targets: [{ ${TARGET} }]\nmetrics_api: { interval: 2s, request_spacing: 1s, chains: [43114, total], metrics: [txCount, avgTps] }\n`,
    expect: [
      'metrics_api.interval: 2 chains x 2 metrics take at least 4 requests 1000 ms apart (3000 ms), more than the interval of 2000 ms',
    ],
  },
  { name: 'unknown unit', text: `global: { interval: 1y }\ntargets: [{ ${TARGET} }]\n`, expect: ['global.interval: must be a duration'] },
  {
    name: 'interval below 1s',
    text: `global: { interval: 500ms, timeout: 100ms }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.interval: must be at least 1s'],
  },
  {
    name: 'lock heartbeat below 100ms',
    text: `targets: [{ ${TARGET} }]\nalerts: { lock_heartbeat: 50ms }\n`,
    expect: ['alerts.lock_heartbeat: must be at least 100ms'],
  },
  {
    name: 'timeout above interval',
    text: `global: { interval: 10s, timeout: 1m }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.timeout: must not exceed global.interval'],
  },
  {
    name: 'retry backoff beyond a timer',
    text: `targets: [{ ${TARGET} }]\nalerts: { retry: { max_backoff: 4w } }\n`,
    expect: ['alerts.retry.max_backoff: must be at most 24d'],
  },
  // Headers: CR/LF would split the request, undici refuses other characters at the first request
  {
    name: 'CR/LF in a header value',
    text: `targets: [{ ${TARGET}, headers: { X-Token: "abc\\r\\nX-Injected: 1" } }]\n`,
    expect: ['targets[0].headers."X-Token": must not contain a line break'],
  },
  {
    name: 'LF in a header value',
    text: `targets: [{ ${TARGET}, headers: { Authorization: "Bearer a\\nb" } }]\n`,
    expect: ['targets[0].headers.Authorization: must not contain a line break'],
  },
  {
    name: 'NUL in a header value',
    text: `targets: [{ ${TARGET}, headers: { Authorization: "Bearer \\0" } }]\n`,
    expect: ['targets[0].headers.Authorization: must hold only printable characters'],
  },
  {
    name: 'CR/LF from the environment',
    text: `targets: [{ ${TARGET}, headers: { Authorization: "\${TOKEN}" } }]\n`,
    env: { TOKEN: 'a\r\nX-Injected: 1' },
    expect: ['targets[0].headers.Authorization: must not contain a line break'],
  },
  {
    name: 'CR/LF in a header file',
    text: `targets: [{ ${TARGET}, header_files: { Authorization: "${secretWithLineBreak}" } }]\n`,
    expect: ["targets[0].header_files.Authorization: the file's content must not contain a line break"],
  },
  {
    name: 'space in a header name',
    text: `targets: [{ ${TARGET}, headers: { "X Token": abc } }]\n`,
    expect: ['targets[0].headers."X Token": must be an HTTP header name'],
  },
  {
    name: 'colon in a header name',
    text: `targets: [{ ${TARGET}, headers: { "X-Token:": abc } }]\n`,
    expect: ['targets[0].headers."X-Token:": must be an HTTP header name'],
  },
  {
    name: 'line break in a data API key',
    text: 'data_api: { api_key: "abc\\ndef" }\n',
    expect: ['data_api.api_key: must not contain a line break'],
  },
  // Everything else keeps naming its path
  {
    name: 'missing header file',
    text: `targets: [{ ${TARGET}, header_files: { Authorization: /nonexistent/token } }]\n`,
    expect: ['targets[0].header_files.Authorization: cannot read secret file /nonexistent/token: ENOENT'],
  },
  {
    name: 'unset variable',
    text: `targets: [{ name: a, url: "\${NODE_URL}" }]\n`,
    expect: ['targets[0].url: environment variable NODE_URL is not set'],
  },
  { name: 'non-http url', text: 'targets: [{ name: a, url: "ftp://x" }]\n', expect: ['targets[0].url: must be an http(s) URL'] },
  {
    name: 'bad target name',
    text: 'targets: [{ name: "a b", url: "http://x:1" }]\n',
    expect: ['targets[0].name: must be 1-63 characters'],
  },
  { name: 'duplicate target', text: `targets: [{ ${TARGET} }, { ${TARGET} }]\n`, expect: ['targets[1].name: duplicate target name "a"'] },
  { name: 'unknown top-level key', text: `targets: [{ ${TARGET} }]\ntarget: []\n`, expect: ['target: unknown key'] },
  {
    name: 'unknown collector',
    text: `targets: [{ ${TARGET}, collectors: { nosuch: {} } }]\n`,
    expect: ['targets[0].collectors.nosuch: unknown collector'],
  },
  {
    name: 'string where a number belongs',
    text: `global: { max_response_bytes: "12x" }\ntargets: [{ ${TARGET} }]\n`,
    expect: ['global.max_response_bytes:'],
  },
  {
    name: 'string where a boolean belongs',
    text: `targets: [{ ${TARGET}, collectors: { peers: { enabled: "true" } } }]\n`,
    expect: ['targets[0].collectors.peers.enabled:'],
  },
  { name: 'ratio out of range', text: `global: { jitter_ratio: 2 }\ntargets: [{ ${TARGET} }]\n`, expect: ['global.jitter_ratio:'] },
  {
    name: 'webhook without url',
    text: `targets: [{ ${TARGET} }]\nalerts: { receivers: [{ name: hook, type: webhook }] }\n`,
    expect: ['alerts.receivers[0].url: a webhook receiver needs exactly one url or url_file'],
  },
  {
    name: 'unknown receiver type',
    text: `targets: [{ ${TARGET} }]\nalerts: { receivers: [{ name: hook, type: email, url: "http://x:1" }] }\n`,
    expect: ['alerts.receivers[0].type:'],
  },
];

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close', not 'exit': on a loaded machine the last of stderr can arrive after the exit.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Each start of the CLI costs most of a second of CPU: eight at once would starve the tests running
 * beside this file of the CPU their deadlines count on.
 */
async function twoAtATime<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let index = 0; index < items.length; index += 2) results.push(...(await Promise.all(items.slice(index, index + 2).map(task))));
  return results;
}

function fileFor(bad: BadConfig): string {
  const file = join(dir, `${bad.name.replace(/\W+/g, '-')}.yaml`);
  writeFileSync(file, bad.text);
  return file;
}

/** The lines check-config prints for a file (it prints exactly these, one per issue). */
function linesFor(bad: BadConfig): string[] {
  try {
    loadConfigFile(fileFor(bad), { env: { ...bad.env } });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map(formatConfigIssue);
    return [`not a ConfigError: ${(error as Error).stack}`];
  }
  return [];
}

/** Exactly the expected lines (each a prefix), in order. */
function mismatch(bad: BadConfig, lines: string[]): string | undefined {
  const ok = lines.length === bad.expect.length && bad.expect.every((prefix, index) => lines[index].startsWith(prefix));
  return ok ? undefined : `${bad.name}: expected ${JSON.stringify(bad.expect)}, got ${JSON.stringify(lines)}`;
}

// Spawning a CLI per row would take minutes on a small machine: the table runs through the loader
// check-config uses, and these rows (the ones that once passed or crashed) also through the processes.
const THROUGH_THE_CLI = [
  'empty file',
  'no targets',
  'top-level list',
  'binary garbage',
  'alias bomb',
  'collector interval beyond a timer',
  'CR/LF in a header value',
  'CR/LF from the environment',
];

describe(`${BAD.length} bad configs`, () => {
  it('are each refused with one line per bad path', () => {
    expect(BAD.map((bad) => mismatch(bad, linesFor(bad))).filter(Boolean)).toEqual([]);
  });

  it('check-config exits 2 with the same lines and no stack trace', async () => {
    const rows = BAD.filter((bad) => THROUGH_THE_CLI.includes(bad.name));
    expect(rows.length).toBe(THROUGH_THE_CLI.length);
    const results = await twoAtATime(rows, (bad) => run(['check-config', fileFor(bad)], bad.env));
    rows.forEach((bad, index) => {
      expect({ name: bad.name, code: results[index].code }).toEqual({ name: bad.name, code: 2 });
      expect(mismatch(bad, results[index].stderr.trim().split('\n'))).toBeUndefined();
    });
  }, 180_000);

  it('the daemon refuses them at start with exit 2, having started nothing', async () => {
    const rows = BAD.filter((bad) => THROUGH_THE_CLI.includes(bad.name));
    const results = await twoAtATime(rows, (bad) =>
      run([`--config.file=${fileFor(bad)}`, '--web.listen-address=127.0.0.1:0', '--log.level=error'], bad.env),
    );
    rows.forEach((bad, index) => {
      expect({ name: bad.name, code: results[index].code }).toEqual({ name: bad.name, code: 2 });
      expect(results[index].stderr, bad.name).not.toContain('avaxmon listening');
      expect(results[index].stderr, bad.name).not.toMatch(/^\s+at /m);
      // One log line (stderr, the log's format) listing the issues check-config prints.
      const lines = results[index].stderr.trim().split('\n');
      expect(lines, bad.name).toHaveLength(1);
      const issues = (JSON.parse(lines[0]) as { issues: string[] }).issues.join('\n');
      for (const prefix of bad.expect) expect(issues, bad.name).toContain(prefix);
    });
  }, 180_000);

  it('accepts durations in days and weeks within the timer limit', () => {
    const good: BadConfig = {
      name: 'good',
      text: `global: { interval: 1m }\ntargets: [{ ${TARGET}, collectors: { upgrades: { interval: 1d } } }]\nalerts: { repeat_interval: 1w, retry: { max_age: 2w3d } }\n`,
      expect: [],
    };
    expect(linesFor(good)).toEqual([]);
  });
});
