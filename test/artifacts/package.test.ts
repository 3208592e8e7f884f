import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as Record<string, unknown> & { scripts: Record<string, string> };

/** What `npm pack` would put in the tarball. Scripts are skipped: prepack's rebuild would replace dist/ under other tests. */
function packedFiles(): string[] {
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path);
}

describe('the npm package', () => {
  it('ships the built daemon, dashboards, rules, manifests, example configs, schema, licence and changelog', () => {
    const files = packedFiles();
    for (const path of [
      'dist/main.js',
      'dist/daemon/daemon.js',
      'dashboards/fleet-overview.json',
      'alerts/avaxmon.rules.yaml',
      'alerts/avalanchego.rules.yaml',
      'deploy/kubernetes/kustomization.yaml',
      'deploy/systemd/avaxmon.service',
      // The rule generator the runbooks tell users to run, with its sources; the docs the README links.
      'scripts/generate-rules.mjs',
      'alerts/src/avaxmon-meta.rules.yaml',
      'alerts/settings.yaml',
      'docs/runbooks.md',
      'docs/deploy-systemd.md',
      'config.example.yaml',
      'config.minimal.yaml',
      'config.schema.json',
      'scenarios/demo.yaml',
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
    ]) {
      expect(files, path).toContain(path);
    }
    // Sources, tests and dev tooling stay out, and source maps that would point at sources not shipped.
    // Every doc the README links to is in the installed copy too.
    // The screenshot stays out (npm's README renders it from the repository).
    const docLinks = [...readFileSync(`${ROOT}README.md`, 'utf8').matchAll(/\]\((docs\/[^)#]+\.md)/g)].map(([, path]) => path);
    expect(files).not.toContain('docs/status-page.png');
    expect(docLinks.length).toBeGreaterThan(5);
    expect(docLinks.filter((path) => !files.includes(path))).toEqual([]);
    const tooling = (path: string) => /^(src|test|bench|scripts|\.ci)\//.test(path) || path.startsWith('dashboards/src/');
    expect(files.filter((path) => tooling(path) && path !== 'scripts/generate-rules.mjs')).toEqual([]);
    expect(files.filter((path) => path.endsWith('.map'))).toEqual([]);
  });

  it('builds dist/ before packing, has no install script, and says where it comes from', () => {
    expect(pkg.scripts.prepack).toBe('node scripts/prune-dist.mjs && npm run -s build');
    // No install script: npm warns about each one on a global install.
    expect(pkg.scripts).not.toHaveProperty('prepare');
    expect(pkg.scripts).not.toHaveProperty('postinstall');
    // Through the check that says to build first, not a MODULE_NOT_FOUND stack (test/cli/entry-points.test.ts).
    expect(pkg.scripts.start).toBe('exec node scripts/run-built.mjs main');
    expect(pkg.engines).toEqual({ node: '>=22' });
    expect(pkg.license).toBe('Apache-2.0');
    expect(readFileSync(`${ROOT}LICENSE`, 'utf8')).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(pkg.repository).toMatchObject({ url: expect.stringContaining('github.com/avaxmon/avaxmon') });
    expect(pkg.homepage).toContain('github.com/avaxmon/avaxmon');
  });
});

describe('prepack (scripts/prune-dist.mjs)', () => {
  it('removes only the compiled files whose source is gone, leaving dist/ and the rest in place for a running daemon', () => {
    const root = mkdtempSync(join(tmpdir(), 'avaxmon-prune-'));
    try {
      for (const directory of ['scripts', 'src/cli', 'dist/cli', 'dist/old']) mkdirSync(join(root, directory), { recursive: true });
      copyFileSync(`${ROOT}scripts/prune-dist.mjs`, join(root, 'scripts/prune-dist.mjs'));
      for (const file of ['src/main.ts', 'src/cli/init.ts']) writeFileSync(join(root, file), '');
      for (const file of ['dist/main.js', 'dist/cli/init.js', 'dist/revision.txt', 'dist/removed.js', 'dist/old/gone.js']) {
        writeFileSync(join(root, file), 'x');
      }
      const before = statSync(join(root, 'dist/main.js')).ino;
      const result = spawnSync(process.execPath, [join(root, 'scripts/prune-dist.mjs')], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      expect(statSync(join(root, 'dist/main.js')).ino).toBe(before);
      for (const kept of ['dist/cli/init.js', 'dist/revision.txt']) expect(existsSync(join(root, kept)), kept).toBe(true);
      for (const gone of ['dist/removed.js', 'dist/old/gone.js']) expect(existsSync(join(root, gone)), gone).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
