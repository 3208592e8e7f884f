import { seriesRule } from './series-rule.js';

export const avaxmonTargetDown = seriesRule({
  name: 'AvaxmonTargetDown',
  metric: 'avaxmon_target_up',
  labels: ['target'],
  defaultFor: '1m',
  severity: 'critical',
  description: 'avaxmon cannot reach the node at all (avaxmon_target_up == 0). Inhibits the other alerts of the target.',
  check: (value) => (value === 0 ? 'critical' : undefined),
  summary: (labels) => `avaxmon cannot reach target ${labels.target}`,
  detail: (labels) =>
    `Requests to ${labels.target} fail at the transport (refused, reset or timed out); no other alert of this target is sent while it is down.`,
});
