import { bargauge, boolTimeline, dashboard, row, sel, table, timeseries } from './builder.mjs';

export default dashboard({
  uid: 'avaxmon-node',
  title: 'avaxmon / Node detail',
  description:
    'Health checks, their failures and the numbers they measure, peers by version, observed uptime, the upgrade schedule, chain heights and progress per chain, and ACP votes of the selected nodes.',
  panels: [
    row('Health'),
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
    timeseries({
      title: 'Connected stake per chain',
      description:
        "Share of each chain's validator stake the node is connected to, from the chain health checks (avaxmon_health_chain_connected_stake_ratio); AvalancheGo's own alert threshold is 80%.",
      unit: 'percentunit',
      max: 1,
      thresholds: [
        { color: 'red', value: null },
        { color: 'green', value: 0.8 },
      ],
      queries: [{ expr: `avaxmon_health_chain_connected_stake_ratio${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Disk available',
      description:
        'Share of the disk available to the node, from the diskspace health check (avaxmon_health_disk_available_ratio); the node turns unhealthy below 10% and shuts down below 3%.',
      unit: 'percentunit',
      min: 0,
      max: 1,
      thresholds: [
        { color: 'red', value: null },
        { color: 'orange', value: 0.03 },
        { color: 'green', value: 0.1 },
      ],
      queries: [{ expr: `avaxmon_health_disk_available_ratio${sel()}`, legend: '{{target}}' }],
    }),
    timeseries({
      title: 'Network send failures and processing blocks',
      description:
        'Share of outbound messages that failed (avaxmon_health_network_send_fail_ratio) and blocks awaiting a decision per chain (avaxmon_health_chain_processing_blocks), from the health checks.',
      unit: 'short',
      min: 0,
      queries: [
        { expr: `avaxmon_health_network_send_fail_ratio${sel()}`, legend: '{{target}} send-fail ratio' },
        { expr: `avaxmon_health_chain_processing_blocks${sel()}`, legend: '{{target}} {{chain}} processing blocks' },
      ],
    }),
    boolTimeline({
      title: 'Subnet health (health tags)',
      description: 'Whether health.health filtered by each configured tag (a subnet id) is healthy (avaxmon_health_tag_healthy).',
      ok: 'healthy',
      fail: 'unhealthy',
      queries: [{ expr: `avaxmon_health_tag_healthy${sel()}`, legend: '{{target}} {{tag}}' }],
    }),
    row('Peers, uptime and upgrades'),
    bargauge({
      title: 'Peers by version',
      description: 'Connected peers by the AvalancheGo version they run (avaxmon_node_peers_by_version).',
      unit: 'short',
      queries: [{ expr: `sort_desc(avaxmon_node_peers_by_version${sel()})`, legend: '{{target}} {{version}}' }],
    }),
    timeseries({
      title: 'Newer AvalancheGo among peers',
      description:
        'Share of the connected validator stake (avaxmon_node_peers_newer_version_stake_ratio) and of all peers (avaxmon_node_peers_newer_version_ratio) on a newer release than this node; AvalancheNodeVersionBehind fires above 50% of the stake.',
      unit: 'percentunit',
      min: 0,
      max: 1,
      queries: [
        { expr: `avaxmon_node_peers_newer_version_stake_ratio${sel()}`, legend: '{{target}} stake' },
        { expr: `avaxmon_node_peers_newer_version_ratio${sel()}`, legend: '{{target}} peers' },
      ],
    }),
    timeseries({
      title: 'Uptime observed by peers',
      description:
        "Distribution of the node's uptime as the connected validators observe it: minimum, stake-weighted 10th percentile and median (info.peers observedUptime, weighted by platform.getValidatorsAt).",
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
      description:
        "The deciding view (the uptime at least 75% of the connected validator stake sees: what decides the reward), and info.uptime's stake-weighted average (disconnected stake at 0%) and share of stake that would reward the node; the requirement is 90% for validations that started from Helicon on, 80% before.",
      unit: 'percentunit',
      max: 1,
      thresholds: [
        { color: 'red', value: null },
        { color: 'orange', value: 0.8 },
        { color: 'green', value: 0.9 },
      ],
      queries: [
        { expr: `avaxmon_validator_uptime_ratio${sel('view="network"')}`, legend: '{{target}} {{subnet}} deciding view' },
        { expr: `avaxmon_node_uptime_weighted_average_ratio${sel()}`, legend: '{{target}} {{subnet}} weighted average' },
        { expr: `avaxmon_node_uptime_rewarding_stake_ratio${sel()}`, legend: '{{target}} {{subnet}} rewarding stake' },
      ],
    }),
    table({
      title: 'Upgrade schedule',
      description:
        'Activation time of each scheduled network upgrade (avaxmon_network_upgrade_activation_timestamp_seconds where avaxmon_network_upgrade_scheduled is 1).',
      unit: 'dateTimeAsIso',
      rename: { target: 'Target', upgrade: 'Upgrade', Value: 'Activates' },
      queries: [
        {
          expr: `avaxmon_network_upgrade_activation_timestamp_seconds${sel()} * 1000 and on (job, instance, target, upgrade) avaxmon_network_upgrade_scheduled${sel()} == 1`,
        },
      ],
    }),
    row('Chains'),
    boolTimeline({
      title: 'Chains bootstrapped',
      description: 'Whether the node has finished bootstrapping each chain (avaxmon_chain_bootstrapped).',
      ok: 'bootstrapped',
      fail: 'bootstrapping',
      queries: [{ expr: `avaxmon_chain_bootstrapped${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    boolTimeline({
      title: 'Chains answering',
      description:
        'Whether each chain answered the last chain_progress run (avaxmon_chain_up); a failing chain, e.g. 503 while it bootstraps, loses only its own series.',
      ok: 'up',
      fail: 'failing',
      queries: [{ expr: `avaxmon_chain_up${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Chain height',
      description: 'Last accepted height of each chain (avaxmon_chain_height).',
      unit: 'locale',
      queries: [{ expr: `avaxmon_chain_height${sel()}`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Chain progress',
      description:
        'Blocks accepted per second, from the change of the chain height over the rate interval (deriv of avaxmon_chain_height).',
      unit: 'suffix: blocks/s',
      min: 0,
      queries: [{ expr: `deriv(avaxmon_chain_height${sel()}[$__rate_interval])`, legend: '{{target}} {{chain}}' }],
    }),
    timeseries({
      title: 'Time since the height last moved',
      description:
        'Seconds since each chain last made progress (avaxmon_chain_last_progress_timestamp_seconds); AvalancheChainStalled fires above 5 minutes.',
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
