import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import { requireTool } from '../helpers/tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DIR = join(ROOT, 'deploy/kubernetes');

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: unknown };
interface Validatable {
  validate(): void;
}
const MODELS: Record<string, new (data: never) => Validatable> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/StatefulSet': StatefulSet,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PodMonitor': PodMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

const kustomization = parse(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8')) as {
  resources: string[];
  images: { name: string; newName: string; newTag: string }[];
};
// Resources are this directory's manifest files, plus other kustomizations (the dashboards).
const manifestFiles = kustomization.resources.filter((resource) => resource.endsWith('.yaml'));
const manifests: { file: string; manifest: Manifest }[] = manifestFiles.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((document) => ({ file, manifest: document.toJS() as Manifest })),
);
const byKind = (kind: string) => manifests.filter(({ manifest }) => manifest.kind === kind).map(({ manifest }) => manifest);

interface Container {
  name: string;
  image: string;
  ports?: { name: string; containerPort: number }[];
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { httpGet?: { path: string; port: string } };
  volumeMounts?: { name: string; mountPath: string }[];
  env?: { name: string }[];
}
const statefulSet = byKind('StatefulSet')[0] as unknown as {
  spec: {
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        securityContext: Record<string, unknown>;
        containers: Container[];
        volumes: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[];
      };
    };
  };
};
const podSpec = statefulSet.spec.template.spec;
const container = (name: string) => podSpec.containers.find((candidate) => candidate.name === name)!;

describe('deploy/kubernetes', () => {
  it('lists every manifest file in kustomization.yaml', () => {
    const files = readdirSync(DIR).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    expect([...manifestFiles].sort()).toEqual(files.sort());
  });

  it("takes avaxmon's image from the one kustomize images: field", () => {
    expect(container('avaxmon').image).toBe('avaxmon');
    expect(kustomization.images).toEqual([
      { name: 'avaxmon', newName: 'ghcr.io/avaxmon/avaxmon', newTag: expect.stringMatching(/^\d+\.\d+\.\d+/) },
    ]);
  });

  it('ships every dashboard as a ConfigMap labelled grafana_dashboard: "1" through a configMapGenerator', () => {
    expect(kustomization.resources).toContain('../../dashboards');
    const DASHBOARDS = join(ROOT, 'dashboards');
    const generator = parse(readFileSync(join(DASHBOARDS, 'kustomization.yaml'), 'utf8')) as {
      generatorOptions: { labels: Record<string, string>; disableNameSuffixHash: boolean };
      configMapGenerator: { name: string; files: string[] }[];
    };
    expect(generator.generatorOptions.labels).toEqual({ grafana_dashboard: '1' });
    expect(generator.generatorOptions.disableNameSuffixHash).toBe(true);
    const shipped = generator.configMapGenerator.flatMap((entry) => entry.files);
    expect(shipped.sort()).toEqual(
      readdirSync(DASHBOARDS)
        .filter((file) => file.endsWith('.json'))
        .sort(),
    );
    // What kustomize generates from each entry is a valid ConfigMap whose data is the dashboard JSON.
    for (const entry of generator.configMapGenerator) {
      const data = Object.fromEntries(entry.files.map((file) => [file, readFileSync(join(DASHBOARDS, file), 'utf8')]));
      const configMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: entry.name, labels: generator.generatorOptions.labels },
        data,
      };
      expect(() => new ConfigMap(configMap as never).validate()).not.toThrow();
      for (const text of Object.values(data)) expect((JSON.parse(text) as { title?: string }).title).toMatch(/\S/);
    }
  });

  it('has the sidecar example: StatefulSet, ConfigMap, Services, ServiceMonitor, PodMonitor, PrometheusRule', () => {
    expect(manifests.map(({ manifest }) => manifest.kind).sort()).toEqual(
      ['ConfigMap', 'PodMonitor', 'PrometheusRule', 'Service', 'Service', 'ServiceMonitor', 'StatefulSet'].sort(),
    );
  });

  it.each(manifests.map(({ file, manifest }) => [`${file}: ${manifest.kind}/${manifest.metadata.name}`, manifest] as const))(
    '%s is valid against its Kubernetes / Prometheus Operator JSON schema',
    (_name, manifest) => {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model, `no schema for ${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(() => new Model(manifest as never).validate()).not.toThrow();
    },
  );

  it('the schema validation rejects a broken manifest', () => {
    const broken = structuredClone(byKind('StatefulSet')[0]) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = 'one';
    expect(() => new StatefulSet(broken as never).validate()).toThrow(/replicas/);
  });

  it('runs AvalancheGo and the avaxmon sidecar, with probes on /-/healthy and /-/ready', () => {
    expect(podSpec.containers.map((candidate) => candidate.name)).toEqual(['avalanchego', 'avaxmon']);
    const avaxmon = container('avaxmon');
    expect(avaxmon.livenessProbe?.httpGet).toEqual({ path: '/-/healthy', port: 'avaxmon-http' });
    expect(avaxmon.readinessProbe?.httpGet).toEqual({ path: '/-/ready', port: 'avaxmon-http' });
    expect(avaxmon.ports).toEqual([{ name: 'avaxmon-http', containerPort: 9683 }]);
  });

  it('sets resource requests and limits and a restrictive securityContext on every container', () => {
    expect(podSpec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    for (const each of podSpec.containers) {
      expect(each.resources?.requests?.memory, each.name).toBeDefined();
      expect(each.resources?.requests?.cpu, each.name).toBeDefined();
      expect(each.resources?.limits?.memory, each.name).toBeDefined();
      expect(each.securityContext, each.name).toMatchObject({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
    }
  });

  it('mounts the ConfigMap and the Secret reference, and a writable state volume', () => {
    const mounts = Object.fromEntries((container('avaxmon').volumeMounts ?? []).map((mount) => [mount.name, mount.mountPath]));
    expect(mounts['avaxmon-config']).toBe('/etc/avaxmon');
    expect(mounts['avaxmon-state']).toBe('/var/lib/avaxmon');
    expect(podSpec.volumes.find((volume) => volume.name === 'avaxmon-config')?.configMap?.name).toBe(byKind('ConfigMap')[0].metadata.name);
    expect(podSpec.volumes.find((volume) => volume.name === 'avaxmon-secrets')?.secret?.secretName).toBe('avaxmon-secrets');
  });

  it("the ConfigMap's config.yaml is a valid avaxmon config that uses the mounted secret and state volume", () => {
    const text = (byKind('ConfigMap')[0] as unknown as { data: Record<string, string> }).data['config.yaml'];
    const secrets = mkdtempSync(join(tmpdir(), 'avaxmon-k8s-'));
    try {
      writeFileSync(join(secrets, 'slack-webhook-url'), 'https://hooks.slack.com/services/T0/B0/secret\n');
      expect(text).toContain('/run/secrets/avaxmon/slack-webhook-url');
      const config = parseConfig(text.replaceAll('/run/secrets/avaxmon', secrets), { env: { POD_NAME: 'avalanchego-0' } });
      expect(config.targets.map((target) => [target.name, target.url])).toEqual([['avalanchego-0', 'http://127.0.0.1:9650']]);
      expect(container('avaxmon').env?.map((variable) => variable.name)).toContain('POD_NAME');
      expect(text).toMatch(/state_dir: \/var\/lib\/avaxmon/);
    } finally {
      rmSync(secrets, { recursive: true, force: true });
    }
  });

  it('monitors select the pods and ports, and give the jobs the rule files select', () => {
    const podLabels = statefulSet.spec.template.metadata.labels;
    const portNames = podSpec.containers.flatMap((each) => (each.ports ?? []).map((port) => port.name));
    const services = byKind('Service') as unknown as {
      metadata: { name: string; labels: Record<string, string> };
      spec: { selector: Record<string, string>; ports: { name: string; targetPort: string }[] };
    }[];
    for (const service of services) {
      expect(podLabels).toMatchObject(service.spec.selector);
      for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
    }
    const serviceMonitor = byKind('ServiceMonitor')[0] as unknown as {
      spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[] };
    };
    const scraped = services.filter((service) =>
      Object.entries(serviceMonitor.spec.selector.matchLabels).every(([key, value]) => service.metadata.labels[key] === value),
    );
    // A ServiceMonitor's job label is the Service name.
    expect(scraped.map((service) => service.metadata.name)).toEqual(['avaxmon']);
    expect(scraped[0].spec.ports.map((port) => port.name)).toContain(serviceMonitor.spec.endpoints[0].port);
    const podMonitor = byKind('PodMonitor')[0] as unknown as {
      spec: { jobLabel: string; selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string; path: string }[] };
    };
    expect(podLabels).toMatchObject(podMonitor.spec.selector.matchLabels);
    expect(podLabels[podMonitor.spec.jobLabel]).toMatch(/^avalanchego/);
    expect(podMonitor.spec.podMetricsEndpoints[0]).toMatchObject({ port: 'http', path: '/ext/metrics' });
  });
});

describe('deploy/kubernetes/prometheusrule.yaml', () => {
  const generatorUrl = pathToFileURL(join(ROOT, 'scripts/generate-prometheusrule.mjs')).href;

  it('is in sync with alerts/*.rules.yaml (scripts/generate-prometheusrule.mjs)', async () => {
    const generator = (await import(generatorUrl)) as { renderPrometheusRule(jobs?: Record<string, string>): string };
    expect(readFileSync(join(DIR, 'prometheusrule.yaml'), 'utf8'), 'run node scripts/generate-prometheusrule.mjs').toBe(
      generator.renderPrometheusRule(),
    );
    const rules = byKind('PrometheusRule')[0] as unknown as { spec: { groups: { rules: { alert: string }[] }[] } };
    const alertsInFiles = ['avaxmon.rules.yaml', 'avalanchego.rules.yaml'].flatMap((file) =>
      (parse(readFileSync(join(ROOT, 'alerts', file), 'utf8')) as { groups: { rules: { alert: string }[] }[] }).groups.flatMap((group) =>
        group.rules.map((rule) => rule.alert),
      ),
    );
    expect(rules.spec.groups.flatMap((group) => group.rules.map((rule) => rule.alert))).toEqual(alertsInFiles);
  });

  it('retargets the job selectors on request, and the result still passes promtool', async () => {
    const generator = (await import(generatorUrl)) as { renderPrometheusRule(jobs?: Record<string, string>): string };
    const text = generator.renderPrometheusRule({ 'avaxmon-job': 'monitoring/avaxmon', 'avalanchego-job': 'mainnet|fuji' });
    expect(text).not.toContain('job=~"avaxmon.*"');
    expect(text).not.toContain('job=~"avalanchego.*"');
    expect(text).toContain('job=~"monitoring/avaxmon"');
    expect(text).toContain('job=~"mainnet|fuji"');
    if (!requireTool('/usr/bin/promtool', 'prometheus')) return;
    const directory = mkdtempSync(join(tmpdir(), 'avaxmon-rules-'));
    try {
      const file = join(directory, 'rules.yaml');
      writeFileSync(file, JSON.stringify((parse(text) as { spec: unknown }).spec));
      const result = spawnSync('/usr/bin/promtool', ['check', 'rules', file], { encoding: 'utf8' });
      expect(result.status, result.stdout + result.stderr).toBe(0);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
