import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const STARTER = readFileSync(new URL('../../config.minimal.yaml', import.meta.url), 'utf8');

function inEmptyDirectory(...args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), 'avaxmon-init-'));
  return { cwd, run: (...more: string[]) => spawnSync(process.execPath, [MAIN, ...args, ...more], { cwd, encoding: 'utf8' }) };
}

/** `init` in an empty directory, started as `script` (the built main.js or a link to it) with `env`. */
function initAs(script: string, env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'avaxmon-init-'));
  const environment = { ...process.env, ...env };
  if (!('npm_lifecycle_event' in env)) delete environment.npm_lifecycle_event;
  const result = spawnSync(process.execPath, [script, 'init', 'config.yaml'], { cwd, encoding: 'utf8', env: environment });
  return { result, written: readFileSync(join(cwd, 'config.yaml'), 'utf8') };
}

describe('a first run from an empty directory', () => {
  it('says where a config comes from when there is none', () => {
    const { run } = inEmptyDirectory();
    const result = run('--log.level=error');
    expect(result.status).toBe(2);
    expect(result.stdout + result.stderr).toContain(`write a starter one with \`node ${MAIN} init config.yaml\``);
  });

  it('avaxmon init writes the starter config, which checks out, and never overwrites a file', () => {
    const { cwd, run } = inEmptyDirectory();
    const first = run('init');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`node ${MAIN} check-config config.yaml`);
    const written = readFileSync(join(cwd, 'config.yaml'), 'utf8');
    // The starter's keys, with comments that hold where it was written.
    expect(written.split('\n').filter((line) => !line.startsWith('#'))).toEqual(
      STARTER.split('\n').filter((line) => !line.startsWith('#')),
    );
    const schema = /\$schema=(\S+)/.exec(written)![1];
    expect(existsSync(fileURLToPath(schema)), schema).toBe(true);
    expect(written).not.toContain('config.minimal.yaml');
    expect(written).toContain(`node ${MAIN} --config.file=${join(cwd, 'config.yaml')}`);
    const example = /Every key, with its default: (\S+)\./.exec(written)![1];
    expect(existsSync(example), example).toBe(true);
    expect(run('check-config', 'config.yaml').status).toBe(0);

    writeFileSync(join(cwd, 'config.yaml'), 'mine\n');
    const again = run('init');
    expect(again.status).toBe(1);
    expect(again.stderr).toBe('avaxmon: cannot write config.yaml: it already exists; nothing was changed\n');
    expect(readFileSync(join(cwd, 'config.yaml'), 'utf8')).toBe('mine\n');
  });

  it('names the command the user ran in its hints: avaxmon from the installed bin, npm start -- from a clone', () => {
    const bin = join(mkdtempSync(join(tmpdir(), 'avaxmon-bin-')), 'avaxmon');
    symlinkSync(MAIN, bin);
    const installed = initAs(bin);
    expect(installed.result.stdout).toContain('  avaxmon check-config config.yaml\n  avaxmon --config.file=config.yaml\n');
    expect(installed.written).toContain('# Every key');
    expect(installed.written).toMatch(/Validate: avaxmon check-config \S+config\.yaml\./);

    const clone = initAs(MAIN, { npm_lifecycle_event: 'start' });
    expect(clone.result.stdout).toContain('  npm start -- check-config config.yaml\n');
    expect(clone.written).toContain('npm start -- test-alert --receiver local-hook');
    expect(clone.written).not.toMatch(/^#.*\bavaxmon (check-config|test-alert|--config)/m);
  });
});
