import { human } from '../prometheus-twin.js';
import type { AlertRule, Candidate } from '../rule.js';

/**
 * GET /ext/health/readiness: the node, or a tracked subnet (health tag), is not ready to serve,
 * e.g. still bootstrapping after a restart or a newly tracked L1 that never finished syncing.
 */
export const avalancheNodeNotReady: AlertRule = {
  name: 'AvalancheNodeNotReady',
  defaultFor: '10m',
  severity: 'warning',
  params: {},
  sources: [
    { metric: 'avaxmon_node_ready', labels: ['target'] },
    { metric: 'avaxmon_health_tag_ready', labels: ['target', 'tag'] },
  ],
  prometheus: {
    group: 'avaxmon-connectivity',
    alerts: [
      {
        severity: 'warning',
        expr: ({ sel }) => `avaxmon_node_ready{${sel}} == 0 or avaxmon_health_tag_ready{${sel}} == 0`,
        summary: () => `Node {{ $labels.target }} is not ready{{ with $labels.tag }} for subnet {{ . }}{{ end }}`,
        description: ({ forSeconds }) =>
          `The readiness endpoint of {{ $labels.target }}{{ with $labels.tag }} filtered by tag {{ . }}{{ end }} has reported not ready for more than ${human(forSeconds)} (bootstrapping or a failing readiness check).`,
      },
    ],
  },
  description:
    'The readiness endpoint reports the node (avaxmon_node_ready == 0) or a tracked subnet (avaxmon_health_tag_ready == 0, per tag) not ready.',
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    for (const sample of ctx.samples.all('avaxmon_node_ready')) {
      if (sample.value !== 0) continue;
      const target = sample.labels.target;
      candidates.push({
        labels: { target },
        severity: 'warning',
        summary: `Node ${target} is not ready`,
        description: `GET /ext/health/readiness on ${target} reports the node not ready (bootstrapping or a failing readiness check); it does not serve its chains yet.`,
      });
    }
    for (const sample of ctx.samples.all('avaxmon_health_tag_ready')) {
      if (sample.value !== 0) continue;
      const { target, tag } = sample.labels;
      candidates.push({
        labels: { target, tag },
        severity: 'warning',
        summary: `Subnet ${tag} is not ready on ${target}`,
        description: `health.readiness filtered by tag ${tag} on ${target} reports not ready: the node has not finished syncing or bootstrapping that subnet's chains.`,
      });
    }
    return candidates;
  },
};
