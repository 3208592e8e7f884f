import { bargauge, boolTimeline, dashboard, sel, table, timeseries } from './builder.mjs';

export default dashboard({
  uid: 'avaxmon-node',
  title: 'avaxmon / Node detail',
  description: 'Health checks and their failures, peers by version, observed uptime, the upgrade schedule, chain heights and progress, and ACP votes of the selected nodes.',
  panels: [
    boolTimeline({
      title: 'Health checks',
      description: 'Whether each health check of the node passes (avaxmon_health_check_passing).',
      w: 24,
      h: 10,
      ok: 'passing',
      fail: 'failing',
      queries: [{ expr: `avaxmon_health_check_passing${sel()}`, legend: '{{target}} {{check}}' }],
    }),
    timeseries({
      title: 'Health check contiguous failures',
      description: 'Contiguous failures of each health check, 0 while it passes (avaxmon_health_check_contiguous_failures).',
      unit: 'short',
      min: 0,
      queries: [{ expr: `avaxmon_health_check_contiguous_failures${sel()}`, legend: '{{target}} {{check}}' }],
    }),
    boolTimeline({
      title: 'Subnet health (health tags)',
      description: 'Whether health.health filtered by each configured tag (a subnet id) is healthy (avaxmon_health_tag_healthy).',
      ok: 'healthy',
      fail: 'unhealthy',
      queries: [{ expr: `avaxmon_health_tag_healthy${sel()}`, legend: '{{target}} {{tag}}' }],
    }),
    bargauge({
      title: 'Peers by version',
      description: 'Connected peers by the AvalancheGo version they run (avaxmon_node_peers_by_version).',
      unit: 'short',
      queries: [{ expr: `sort_desc(avaxmon_node_peers_by_version${sel()})`, legend: '{{target}} {{version}}' }],
    }),
    timeseries({
      title: 'Uptime observed by peers',
      description: "Distribution of the node's uptime as its peers observe it: minimum, 10th percentile and median (info.peers observedUptime).",
      unit: 'percentunit',
      max: 1,
      queries: [
        { expr: `avaxmon_node_observed_uptime_min_ratio${sel()}`, legend: '{{target}} min' },
        { expr: `avaxmon_node_observed_uptime_p10_ratio${sel()}`, legend: '{{target}} p10' },
        { expr: `avaxmon_node_observed_uptime_median_ratio${sel()}`, legend: '{{target}} median' },
      ],
    }),
    timeseries({
      title: 'Uptime seen by validators',
      description: "Stake-weighted average uptime and share of stake that would reward the node, per subnet (info.uptime); the requirement is 90% for validations that started from Helicon on, 80% before.",
      unit: 'percentunit',
      max: 1,
      thresholds: [
        { color: 'red', value: null },
        { color: 'orange', value: 0.8 },
        { color: 'green', value: 0.9 },
      ],
      queries: [
        { expr: `avaxmon_node_uptime_weighted_average_ratio${sel()}`, legend: '{{target}} {{subnet}} weighted average' },
        { expr: `avaxmon_node_uptime_rewarding_stake_ratio${sel()}`, legend: '{{target}} {{subnet}} rewarding stake' },
      ],
    }),
    table({
      title: 'Upgrade schedule',
      description: 'Activation time of each scheduled network upgrade (avaxmon_network_upgrade_activation_timestamp_seconds where avaxmon_network_upgrade_scheduled is 1).',
      unit: 'dateTimeAsIso',
      rename: { target: 'Target', upgrade: 'Upgrade', Value: 'Activates' },
      queries: [
        {
          expr: `avaxmon_network_upgrade_activation_timestamp_seconds${sel()} * 1000 and on (job, instance, target, upgrade) avaxmon_network_upgrade_scheduled${sel()} == 1`,
        },
      ],
    }),
    boolTimeline({
      title: 'Chains bootstrapped',
      description: 'Whether the node has finished bootstrapping each chain (avaxmon_chain_bootstrapped).',
      ok: 'bootstrapped',
      fail: 'bootstrapping',
      queries: [{ expr: `avaxmon_chain_bootstrapped${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Chain height',
      description: 'Last accepted height of each chain (avaxmon_chain_height).',
      unit: 'locale',
      queries: [{ expr: `avaxmon_chain_height${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Chain progress',
      description: 'Blocks accepted per second, from the change of the chain height over the rate interval (deriv of avaxmon_chain_height).',
      unit: 'suffix: blocks/s',
      min: 0,
      queries: [{ expr: `deriv(avaxmon_chain_height${sel()}[$__rate_interval])`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Time since the height last moved',
      description: 'Seconds since each chain last made progress (avaxmon_chain_last_progress_timestamp_seconds); AvalancheChainStalled fires above 5 minutes.',
      unit: 's',
      min: 0,
      thresholds: [
        { color: 'green', value: null },
        { color: 'red', value: 300 },
      ],
      queries: [{ expr: `time() - avaxmon_chain_last_progress_timestamp_seconds${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Benched peers',
      description: 'Peers benched on each chain by this node for failing to answer queries (avaxmon_node_benched_peers).',
      unit: 'short',
      min: 0,
      queries: [{ expr: `avaxmon_node_benched_peers${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    bargauge({
      title: 'ACP votes',
      description: 'Stake in AVAX supporting, objecting to and abstaining on each ACP, as the node reports it (info.acps).',
      unit: 'suffix: AVAX',
      w: 24,
      h: 10,
      queries: [
        { expr: `avaxmon_acp_support_weight_avax${sel()}`, legend: 'ACP-{{acp}} support' },
        { expr: `avaxmon_acp_object_weight_avax${sel()}`, legend: 'ACP-{{acp}} object' },
        { expr: `avaxmon_acp_abstain_weight_avax${sel()}`, legend: 'ACP-{{acp}} abstain' },
      ],
    }),
  ],
});
