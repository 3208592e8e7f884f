import { human } from '../prometheus-twin.js';
import { seriesRule } from './series-rule.js';

export const avalancheSubnetUnhealthy = seriesRule({
  name: 'AvalancheSubnetUnhealthy',
  metric: 'avaxmon_health_tag_healthy',
  labels: ['target', 'tag'],
  defaultFor: '2m',
  severity: 'critical',
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel }) => `avaxmon_health_tag_healthy{${sel}} == 0`,
        summary: () => `Subnet {{ $labels.tag }} is unhealthy on {{ $labels.target }}`,
        description: ({ forSeconds }) =>
          `health.health filtered by tag {{ $labels.tag }} has reported unhealthy on {{ $labels.target }} for more than ${human(forSeconds)}.`,
      },
    ],
  },
  description: 'health.health filtered by a configured tag (a subnet id) is unhealthy (avaxmon_health_tag_healthy == 0).',
  check: (value) => (value === 0 ? 'critical' : undefined),
  summary: (labels) => `Subnet ${labels.tag} is unhealthy on ${labels.target}`,
  detail: (labels) => `health.health with tag ${labels.tag} reports unhealthy on ${labels.target}.`,
});
