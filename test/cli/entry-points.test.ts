import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/runtime/require-node.js';
import { requireTool } from '../helpers/tools.js';

/**
 * Every way a newcomer starts avaxmon, on an unsupported Node.js and before a build: one line that
 * says what to do, exit 1, never a stack trace or a flood of collector errors.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
/** Debian's own node (18 on bookworm): the unsupported Node.js an operator meets first. */
const SYSTEM_NODE = '/usr/bin/node';
/** npm itself runs on this test's Node; the scripts it starts find the `node` first on PATH. */
const NPM_CLI = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
const NPM_SCRIPTS = ['start', 'demo', 'simulate', 'collect', 'check-config', 'test-alert', 'dev'];
const scratch = mkdtempSync(join(tmpdir(), 'avaxmon-entry-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function npmRun(script: string, cwd: string, nodeDirectory: string) {
  return spawnSync(process.execPath, [NPM_CLI, 'run', '--silent', script], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${nodeDirectory}:${process.env.PATH}`, AVAXMON_DEMO_PORT: '0' },
    timeout: 60_000,
  });
}

function expectOneLine(result: ReturnType<typeof spawnSync>, pattern: RegExp, label: string): void {
  const stderr = String(result.stderr);
  expect(result.status, `${label}: ${stderr}`).toBe(1);
  expect(stderr.trim().split('\n'), label).toHaveLength(1);
  expect(stderr, label).toMatch(pattern);
  expect(stderr, label).not.toMatch(/MODULE_NOT_FOUND|\n\s+at /);
}

const oldNode = requireTool(SYSTEM_NODE, 'nodejs') ? spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : undefined;
const unsupported = oldNode !== undefined && nodeVersionProblem(oldNode) !== undefined;
if (oldNode && !unsupported) console.warn(`skipping the old-Node.js checks: ${SYSTEM_NODE} is ${oldNode}, a supported Node.js`);

describe.runIf(unsupported)(`on an unsupported Node.js (${SYSTEM_NODE} ${oldNode})`, () => {
  const shim = join(scratch, 'old-node-bin');
  mkdirSync(shim);
  symlinkSync(SYSTEM_NODE, join(shim, 'node'));

  it.each(NPM_SCRIPTS)('npm run %s refuses in one line', (script) => {
    expectOneLine(npmRun(script, ROOT, shim), new RegExp(`needs Node\\.js 22 or newer.*${oldNode!.replaceAll('.', '\\.')}`), script);
  });

  it.each(['dist/main.js', 'dist/demo.js'])('node %s refuses in one line', (file) => {
    const result = spawnSync(SYSTEM_NODE, [join(ROOT, file)], {
      encoding: 'utf8',
      env: { ...process.env, AVAXMON_DEMO_PORT: '0' },
      timeout: 60_000,
    });
    expectOneLine(result, /needs Node\.js 22 or newer/, file);
    expect(result.stdout).toBe('');
  });
});

describe('npm scripts before a build', () => {
  /** A fresh clone: the tracked files, no dist/; with or without the dependencies installed. */
  function checkout(name: string, withDependencies: boolean): string {
    const directory = join(scratch, name);
    for (const file of ['package.json', 'scripts']) cpSync(join(ROOT, file), join(directory, file), { recursive: true });
    if (withDependencies) symlinkSync(join(ROOT, 'node_modules'), join(directory, 'node_modules'));
    return directory;
  }
  const built = checkout('installed', true);
  const fresh = checkout('fresh', false);
  const nodeDirectory = join(process.execPath, '..');

  it.each(NPM_SCRIPTS.filter((script) => script !== 'dev'))('npm run %s says to build first', (script) => {
    expectOneLine(npmRun(script, built, nodeDirectory), /not built yet: run `npm run build` first/, script);
  });

  it.each(NPM_SCRIPTS)('npm run %s in a fresh clone says to install first', (script) => {
    expectOneLine(npmRun(script, fresh, nodeDirectory), /not installed: run `npm ci/, script);
  });
});
