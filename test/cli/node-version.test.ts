import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/runtime/require-node.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
/** Debian's own node, older than avaxmon supports on current Debian: the refusal an operator would meet. */
const SYSTEM_NODE = '/usr/bin/node';

describe('the Node.js version check', () => {
  it('refuses majors below 22 with the versions named, and accepts 22 and newer', () => {
    expect(nodeVersionProblem('v20.20.2')).toMatch(/needs Node\.js 22 or newer; this is Node\.js v20\.20\.2/);
    expect(nodeVersionProblem('v18.19.0')).toMatch(/v18\.19\.0/);
    expect(nodeVersionProblem('v22.0.0')).toBeUndefined();
    expect(nodeVersionProblem('v24.21.0')).toBeUndefined();
  });

  it('is what an old system node prints when it runs avaxmon', () => {
    const version = existsSync(SYSTEM_NODE) ? spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
    if (!version || !nodeVersionProblem(version)) {
      console.log(`skipped: ${SYSTEM_NODE} is ${version || 'missing'}, not an unsupported Node.js`);
      return;
    }
    const run = spawnSync(SYSTEM_NODE, [MAIN, '--version'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`avaxmon needs Node.js 22 or newer; this is Node.js ${version}`);
    expect(run.stdout).toBe('');
  });
});
