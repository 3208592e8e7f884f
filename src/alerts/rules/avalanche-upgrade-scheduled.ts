import { formatSeconds, seriesRule } from './series-rule.js';

export const avalancheUpgradeScheduled = seriesRule({
  name: 'AvalancheUpgradeScheduled',
  metric: 'avaxmon_network_upgrade_activation_timestamp_seconds',
  labels: ['target', 'upgrade'],
  defaultFor: '0m',
  severity: 'info',
  params: { window: { kind: 'duration', default: 7 * 86_400, help: 'notifies when an upgrade activates within this' } },
  description: 'A network upgrade is scheduled (avaxmon_network_upgrade_scheduled == 1) and activates within `window` (7 days).',
  check: (activation, ctx, sample) => {
    const scheduled = ctx.samples.valueOf('avaxmon_network_upgrade_scheduled', { target: sample.labels.target, upgrade: sample.labels.upgrade });
    const left = activation - ctx.nowMs / 1000;
    return scheduled === 1 && left > 0 && left < ctx.params.window ? 'info' : undefined;
  },
  summary: (labels, activation, ctx) => `Network upgrade ${labels.upgrade} activates in ${formatSeconds(activation - ctx.nowMs / 1000)}`,
  detail: (labels, activation) =>
    `Upgrade ${labels.upgrade} activates at ${new Date(activation * 1000).toISOString()}; nodes must run a release that supports it before then (reported by ${labels.target}).`,
});
