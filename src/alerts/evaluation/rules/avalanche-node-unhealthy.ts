import { human } from '../prometheus-twin.js';
import type { AlertRule } from '../rule.js';

export const avalancheNodeUnhealthy: AlertRule = {
  name: 'AvalancheNodeUnhealthy',
  defaultFor: '1m',
  severity: 'critical',
  params: {},
  sources: [{ metric: 'avaxmon_node_healthy', labels: ['target'] }],
  alsoReads: ['avaxmon_health_check_passing'],
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel }) => `avaxmon_node_healthy{${sel}} == 0`,
        summary: () => `Node {{ $labels.target }} is unhealthy`,
        description: ({ forSeconds }) =>
          `GET /ext/health on {{ $labels.target }} has reported unhealthy for more than ${human(forSeconds)}. Failing checks: {{ range printf "avaxmon_health_check_passing{job=%q,instance=%q,target=%q} == 0" $labels.job $labels.instance $labels.target | query }}{{ .Labels.check }} {{ end }}`,
      },
    ],
  },
  description: 'GET /ext/health reports the node unhealthy (avaxmon_node_healthy == 0); the description names the failing checks.',
  evaluate(ctx) {
    return ctx.samples
      .all('avaxmon_node_healthy')
      .filter((sample) => sample.value === 0)
      .map((sample) => {
        const target = sample.labels.target;
        const failing = ctx.samples
          .where('avaxmon_health_check_passing', { target })
          .filter((check) => check.value === 0)
          .map((check) => check.labels.check)
          .sort();
        const checks = failing.length > 0 ? failing.join(', ') : 'none reported';
        return {
          labels: { target },
          severity: 'critical' as const,
          summary: `Node ${target} is unhealthy`,
          description: `/ext/health on ${target} reports unhealthy; failing checks: ${checks}.`,
          annotations: { failing_checks: failing.join(',') },
        };
      });
  },
};
