import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { requireTool } from '../helpers/tools.js';

/**
 * The package as a user gets it: `npm pack`, then `npm install -g` into a scratch prefix, then every
 * Kubernetes directory it ships built with kubectl's kustomize, as docs/deploy-kubernetes.md says.
 * The checkout's directories build the same objects.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const KUBECTL = '/usr/bin/kubectl';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** The one image every avaxmon container runs, from the sidecar's kustomize `images:` and the fleet's StatefulSet. */
const IMAGE = `ghcr.io/avaxmon/avaxmon:${pkg.version}`;

interface KubeObject {
  kind: string;
  metadata: { name: string };
  spec?: { template?: { spec?: { containers?: { name: string; image: string }[] } } };
}

/** Every directory holding a kustomization.yaml, relative to `root`. */
function kustomizations(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('kustomization.yaml'))
    .map((path) => relative(root, join(root, path, '..')) || '.')
    .sort();
}

function kustomize(directory: string): KubeObject[] {
  const result = spawnSync(KUBECTL, ['kustomize', directory], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(result.status, `kubectl kustomize ${directory}: ${result.stderr}`).toBe(0);
  return parseAllDocuments(result.stdout).map((document) => document.toJS() as KubeObject);
}

const summary = (objects: KubeObject[]) => objects.map((object) => `${object.kind}/${object.metadata.name}`).sort();
const avaxmonImages = (objects: KubeObject[]) =>
  objects.flatMap((object) =>
    (object.spec?.template?.spec?.containers ?? []).filter((c) => c.name.startsWith('avaxmon')).map((c) => c.image),
  );

describe.runIf(requireTool(KUBECTL, 'kubectl (on the CI machine image)'))('the packed and globally installed package', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'avaxmon-package-'));
  const prefix = join(scratch, 'prefix');
  const installed = join(prefix, 'lib/node_modules', pkg.name);

  beforeAll(() => {
    // --ignore-scripts: prepack would rebuild dist/ under the other tests; npm test has just built it.
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: ROOT, encoding: 'utf8' });
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = join(scratch, (JSON.parse(pack.stdout) as { filename: string }[])[0].filename);
    const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);
  }, 300_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('puts the avaxmon command on the prefix and it runs', () => {
    const version = spawnSync(join(prefix, 'bin/avaxmon'), ['--version'], { encoding: 'utf8' });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toMatch(new RegExp(`^avaxmon ${pkg.version.replaceAll('.', '\\.')} `));
  });

  it('ships the same kustomize directories as the checkout, and each builds', () => {
    const shipped = kustomizations(join(installed, 'deploy/kubernetes'));
    expect(shipped).toEqual(kustomizations(join(ROOT, 'deploy/kubernetes')));
    expect(shipped).toEqual(['.', 'fleet']);
    for (const directory of shipped) {
      const fromPackage = kustomize(join(installed, 'deploy/kubernetes', directory));
      const fromCheckout = kustomize(join(ROOT, 'deploy/kubernetes', directory));
      expect(fromPackage, directory).toEqual(fromCheckout);
      expect(avaxmonImages(fromPackage), directory).not.toEqual([]);
      for (const image of avaxmonImages(fromPackage)) expect(image, directory).toBe(IMAGE);
    }
  });

  it('builds the sidecar with its dashboards, and the fleet', () => {
    const sidecar = summary(kustomize(join(installed, 'deploy/kubernetes')));
    expect(sidecar).toEqual(
      expect.arrayContaining([
        'ConfigMap/avaxmon-config',
        'StatefulSet/avalanchego',
        'Service/avaxmon',
        'ServiceMonitor/avaxmon',
        'PodMonitor/avalanchego',
        'PrometheusRule/avaxmon',
        'ConfigMap/avaxmon-dashboard-fleet-overview',
      ]),
    );
    expect(sidecar.filter((name) => name.startsWith('ConfigMap/avaxmon-dashboard-'))).toHaveLength(
      readdirSync(join(ROOT, 'dashboards')).filter((file) => file.endsWith('.json')).length,
    );
    expect(summary(kustomize(join(installed, 'deploy/kubernetes/fleet')))).toEqual(
      expect.arrayContaining(['StatefulSet/avaxmon-fleet', 'PodMonitor/avaxmon-fleet']),
    );
    expect(existsSync(join(installed, 'dashboards/kustomization.yaml'))).toBe(true);
  });

  it('leaves the screenshot out of the package', () => {
    expect(existsSync(join(installed, 'docs/status-page.png'))).toBe(false);
    expect(existsSync(join(installed, 'docs/deploy-kubernetes.md'))).toBe(true);
  });
});
