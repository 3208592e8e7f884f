import { seriesRule } from './series-rule.js';

export const avalancheHealthCheckFailing = seriesRule({
  name: 'AvalancheHealthCheckFailing',
  metric: 'avaxmon_health_check_passing',
  labels: ['target', 'check'],
  defaultFor: '2m',
  severity: 'warning',
  description: 'One health check of the node fails (avaxmon_health_check_passing == 0), with its contiguous failures.',
  check: (value) => (value === 0 ? 'warning' : undefined),
  summary: (labels) => `Health check ${labels.check} fails on ${labels.target}`,
  detail: (labels, _, ctx) => {
    const failures = ctx.samples.valueOf('avaxmon_health_check_contiguous_failures', { target: labels.target, check: labels.check });
    return `Health check "${labels.check}" on ${labels.target} is failing${failures === undefined ? '' : ` (${failures} contiguous failures)`}.`;
  },
});
