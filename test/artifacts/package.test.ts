import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
      'dist/daemon.js',
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
    const docLinks = [...readFileSync(`${ROOT}README.md`, 'utf8').matchAll(/\]\((docs\/[^)#]+)/g)].map(([, path]) => path);
    expect(docLinks.length).toBeGreaterThan(5);
    expect(docLinks.filter((path) => !files.includes(path))).toEqual([]);
    const tooling = (path: string) => /^(src|test|bench|scripts|\.ci)\//.test(path) || path.startsWith('dashboards/src/');
    expect(files.filter((path) => tooling(path) && path !== 'scripts/generate-rules.mjs')).toEqual([]);
    expect(files.filter((path) => path.endsWith('.map'))).toEqual([]);
  });

  it('builds dist/ before packing, has no install script, and says where it comes from', () => {
    expect(pkg.scripts.prepack).toMatch(/npm run -s build$/);
    // No install script: npm warns about each one on a global install.
    expect(pkg.scripts).not.toHaveProperty('prepare');
    expect(pkg.scripts).not.toHaveProperty('postinstall');
    expect(pkg.scripts.start).toBe('exec node dist/main.js');
    expect(pkg.engines).toEqual({ node: '>=22' });
    expect(pkg.license).toBe('Apache-2.0');
    expect(readFileSync(`${ROOT}LICENSE`, 'utf8')).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(pkg.repository).toMatchObject({ url: expect.stringContaining('github.com/avaxmon/avaxmon') });
    expect(pkg.homepage).toContain('github.com/avaxmon/avaxmon');
  });
});
