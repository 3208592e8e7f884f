import { human } from '../prometheus-twin.js';
import { seriesRule } from './series-rule.js';

export const avaxmonTargetDown = seriesRule({
  name: 'AvaxmonTargetDown',
  metric: 'avaxmon_target_up',
  labels: ['target'],
  defaultFor: '1m',
  severity: 'critical',
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel }) => `avaxmon_target_up{${sel}} == 0`,
        summary: () => `Target {{ $labels.target }} is unreachable`,
        description: ({ forSeconds }) =>
          `avaxmon's requests to target {{ $labels.target }} have failed at the transport (no HTTP answer) for more than ${human(forSeconds)}.`,
      },
    ],
  },
  description: 'avaxmon cannot reach the node at all (avaxmon_target_up == 0). Inhibits the other alerts of the target.',
  check: (value) => (value === 0 ? 'critical' : undefined),
  summary: (labels) => `avaxmon cannot reach target ${labels.target}`,
  detail: (labels) =>
    `Requests to ${labels.target} fail at the transport (refused, reset or timed out); no other alert of this target is sent while it is down.`,
});
