import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseShard } from '../../src/cli/args.js';
import { parseConfig } from '../../src/config/load.js';

const DIR = new URL('../../deploy/kubernetes/fleet/', import.meta.url).pathname;
const read = (file: string) => parse(readFileSync(join(DIR, file), 'utf8'));

interface FleetSet {
  spec: {
    replicas: number;
    template: {
      spec: {
        containers: Array<{
          args: string[];
          env: Array<{ name: string; value?: string; valueFrom?: { fieldRef: { fieldPath: string } } }>;
        }>;
      };
    };
  };
}

describe('deploy/kubernetes/fleet (sharded central mode)', () => {
  it('every listed manifest is valid for its kind', () => {
    const kinds: Record<string, new (data: never) => { validate(): void }> = { ConfigMap, Service, StatefulSet, PodMonitor };
    for (const file of (read('kustomization.yaml') as { resources: string[] }).resources) {
      const manifest = read(file);
      expect(() => new kinds[manifest.kind](manifest as never).validate(), file).not.toThrow();
    }
  });

  it('gives each replica its ordinal as shard index and the replica count as shard count', () => {
    const set = read('statefulset.yaml') as FleetSet;
    const container = set.spec.template.spec.containers[0];
    const env = Object.fromEntries(container.env.map((variable) => [variable.name, variable]));
    expect(container.args).toContain('--shard=$(SHARD_INDEX)/$(SHARD_COUNT)');
    expect(env.SHARD_INDEX.valueFrom?.fieldRef.fieldPath).toBe("metadata.labels['apps.kubernetes.io/pod-index']");
    expect(Number(env.SHARD_COUNT.value)).toBe(set.spec.replicas);
    for (let ordinal = 0; ordinal < set.spec.replicas; ordinal++)
      expect(parseShard(`${ordinal}/${env.SHARD_COUNT.value}`).index).toBe(ordinal);
  });

  it('ships a config avaxmon accepts', () => {
    const config = parseConfig((read('configmap.yaml') as { data: Record<string, string> }).data['config.yaml']);
    expect(config.targets.length).toBeGreaterThan(0);
  });
});
