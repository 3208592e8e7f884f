import { human } from '../prometheus-twin.js';
import type { AlertRule, Candidate, RuleContext, Severity, TwinAlert } from '../rule.js';
import { formatPercent, formatSeconds } from './series-rule.js';

const SCHEDULED = 'avaxmon_network_upgrade_activation_timestamp_seconds';
const PEERS_UPGRADE = 'avaxmon_health_peers_upgrade_timestamp_seconds';

/**
 * Two views of the next upgrade. info.upgrades is the node's own: an outdated node reports the
 * next upgrade at year 9999 and would never tell. So the futureupgrade health check counts too:
 * when the upgrade time announced by the most stake (at least `peers_stake`) is later than the one
 * this node's release knows, the node must be upgraded, a warning whatever the date.
 */
/** The twin's alert of an upgrade the node does not know: activating within `critical` (critical) or later (warning). */
function unknownUpgrade(tier: 'warning' | 'critical'): Omit<TwinAlert, 'severity'> {
  return {
    expr: ({ sel, p }) => `
      avaxmon_health_peers_upgrade_timestamp_seconds{${sel}} > avaxmon_health_local_upgrade_timestamp_seconds{${sel}}
      and on (job, instance, target) avaxmon_health_peers_upgrade_stake_ratio{${sel}} >= ${p.peers_stake}
      and on (job, instance, target) (avaxmon_health_peers_upgrade_timestamp_seconds{${sel}} - time()) ${tier === 'critical' ? '<' : '>='} ${p.critical}
    `,
    summary: () => `Validators announce an upgrade that the AvalancheGo of {{ $labels.target }} does not know`,
    description: ({ p }) =>
      `Validators holding {{ with printf "avaxmon_health_peers_upgrade_stake_ratio{job=%q,instance=%q,target=%q}" $labels.job $labels.instance $labels.target | query }}{{ . | first | value | humanizePercentage }}{{ end }} of the stake announce a network upgrade at {{ $value | humanizeTimestamp }}, later than any the release of {{ $labels.target }} knows. Upgrade AvalancheGo before then${tier === 'critical' ? ` (less than ${human(p.critical)} left): the node falls off the network at the upgrade` : ''}.`,
  };
}

export const avalancheUpgradeScheduled: AlertRule = {
  name: 'AvalancheUpgradeScheduled',
  defaultFor: '0m',
  severity: ['info', 'warning', 'critical'],
  params: {
    window: { kind: 'duration', default: 7 * 86_400, help: 'notifies when an upgrade the node knows activates within this' },
    critical: {
      kind: 'duration',
      default: 86_400,
      help: 'pages when an upgrade the node does not know activates within this (or has activated)',
    },
    peers_stake: {
      kind: 'number',
      default: 0.5,
      help: 'warns when at least this share of stake announces an upgrade the node does not know',
    },
  },
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'info',
        expr: ({ sel, p }) =>
          `(avaxmon_network_upgrade_activation_timestamp_seconds{${sel}} - time()) < ${p.window} > 0 and avaxmon_network_upgrade_scheduled{${sel}} == 1`,
        summary: ({ p }) => `Network upgrade {{ $labels.upgrade }} activates within ${human(p.window)}`,
        description: () =>
          `Network upgrade {{ $labels.upgrade }}, as reported by {{ $labels.target }}, activates in {{ $value | humanizeDuration }}; nodes must run a version that supports it by then.`,
      },
      { severity: 'warning', ...unknownUpgrade('warning') },
      { severity: 'critical', ...unknownUpgrade('critical') },
    ],
  },
  description:
    "A network upgrade the node knows activates within `window` (7 days; info); or validators holding at least half the stake announce an upgrade time later than the one the node's release knows (futureupgrade health check): a warning to upgrade AvalancheGo, critical once it activates within `critical` (1 day) or has activated.",
  sources: [
    { metric: SCHEDULED, labels: ['target', 'upgrade'] },
    { metric: PEERS_UPGRADE, labels: ['target'] },
  ],
  alsoReads: [
    'avaxmon_network_upgrade_scheduled',
    'avaxmon_health_local_upgrade_timestamp_seconds',
    'avaxmon_health_peers_upgrade_stake_ratio',
  ],
  evaluate(ctx) {
    return [...scheduledUpgrades(ctx), ...upgradesUnknownToNode(ctx)];
  },
};

function scheduledUpgrades(ctx: RuleContext): Candidate[] {
  return ctx.samples.all(SCHEDULED).flatMap((sample): Candidate[] => {
    const { target, upgrade } = sample.labels;
    const scheduled = ctx.samples.valueOf('avaxmon_network_upgrade_scheduled', { target, upgrade });
    const left = sample.value - ctx.nowMs / 1000;
    if (scheduled !== 1 || left <= 0 || left >= ctx.params.window) return [];
    return [
      {
        labels: { target, upgrade },
        severity: 'info',
        summary: `Network upgrade ${upgrade} activates in ${formatSeconds(left)}`,
        description: `Upgrade ${upgrade} activates at ${new Date(sample.value * 1000).toISOString()}; nodes must run a release that supports it before then (reported by ${target}).`,
      },
    ];
  });
}

function upgradesUnknownToNode(ctx: RuleContext): Candidate[] {
  return ctx.samples.all(PEERS_UPGRADE).flatMap((sample): Candidate[] => {
    const { target } = sample.labels;
    const local = ctx.samples.valueOf('avaxmon_health_local_upgrade_timestamp_seconds', { target });
    const stake = ctx.samples.valueOf('avaxmon_health_peers_upgrade_stake_ratio', { target });
    if (local === undefined || stake === undefined || sample.value <= local || stake < ctx.params.peers_stake) return [];
    const at = new Date(sample.value * 1000).toISOString();
    const left = sample.value - ctx.nowMs / 1000;
    const severity: Severity = left < ctx.params.critical ? 'critical' : 'warning';
    const when = left > 0 ? `in ${formatSeconds(left)}` : `${formatSeconds(-left)} ago`;
    return [
      {
        // No `upgrade` label: the node's release does not know the upgrade's name.
        labels: { target },
        severity,
        summary: `Validators announce an upgrade ${when} that the AvalancheGo of ${target} does not know`,
        description: `Validators holding ${formatPercent(stake)} of the stake announce a network upgrade at ${at} (${when}); the release ${target} runs knows none after ${new Date(local * 1000).toISOString()}. Upgrade AvalancheGo before then, or the node falls off the network.`,
      },
    ];
  });
}
