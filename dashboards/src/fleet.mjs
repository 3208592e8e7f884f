import { bargauge, boolTimeline, dashboard, jobSel, row, sel, stat, table, timeseries } from './builder.mjs';

export default dashboard({
  uid: 'avaxmon-fleet',
  title: 'avaxmon / Fleet overview',
  description: "Every target's health, readiness, peers, version, uptime, firing alerts and collector status at a glance.",
  panels: [
    row('Summary'),
    stat({
      title: 'Targets reachable',
      description: 'Targets whose last request got an HTTP answer (avaxmon_target_up), out of all selected targets.',
      unit: 'short',
      w: 4,
      h: 4,
      queries: [
        { expr: `sum(avaxmon_target_up${sel()})`, legend: 'reachable' },
        { expr: `count(avaxmon_target_up${sel()})`, legend: 'targets' },
      ],
    }),
    stat({
      title: 'Targets healthy',
      description: 'Targets whose GET /ext/health reports healthy (avaxmon_node_healthy).',
      unit: 'short',
      w: 4,
      h: 4,
      queries: [
        { expr: `sum(avaxmon_node_healthy${sel()})`, legend: 'healthy' },
        { expr: `count(avaxmon_node_healthy${sel()})`, legend: 'targets' },
      ],
    }),
    stat({
      title: 'Alerts',
      description:
        "Alerts firing and pending in avaxmon's built-in engine (avaxmon_alerts); the avaxmon dashboard breaks them down by rule.",
      unit: 'short',
      w: 8,
      h: 4,
      queries: [
        { expr: `sum(avaxmon_alerts${jobSel('state="firing"')}) or vector(0)`, legend: 'firing' },
        { expr: `sum(avaxmon_alerts${jobSel('state="pending"')}) or vector(0)`, legend: 'pending' },
      ],
    }),
    stat({
      title: 'Collectors failing',
      description: 'Collector runs whose last scheduled run failed (avaxmon_collector_success == 0).',
      unit: 'short',
      w: 8,
      h: 4,
      thresholds: [
        { color: 'green', value: null },
        { color: 'red', value: 1 },
      ],
      queries: [{ expr: `count(avaxmon_collector_success${sel()} == 0) or vector(0)`, legend: 'failing' }],
    }),
    row('Health and peers'),
    boolTimeline({
      title: 'Healthy',
      description: 'Whether GET /ext/health reports each node healthy (avaxmon_node_healthy).',
      ok: 'healthy',
      fail: 'unhealthy',
      queries: [{ expr: `avaxmon_node_healthy${sel()}`, legend: '{{target}}' }],
    }),
    boolTimeline({
      title: 'Ready',
      description: 'Whether GET /ext/health/readiness reports each node ready (avaxmon_node_ready).',
      ok: 'ready',
      fail: 'not ready',
      queries: [{ expr: `avaxmon_node_ready${sel()}`, legend: '{{target}}' }],
    }),
    timeseries({
      title: 'Connected peers',
      description: 'Connected peers of each node (avaxmon_node_peers); AvalanchePeersLow fires below 20.',
      unit: 'short',
      min: 0,
      thresholds: [
        { color: 'red', value: null },
        { color: 'green', value: 20 },
      ],
      queries: [{ expr: `avaxmon_node_peers${sel()}`, legend: '{{target}}' }],
    }),
    timeseries({
      title: 'Uptime seen by validators (primary network)',
      description:
        'The uptime at least 75% of the connected validator stake sees for each node (the deciding view, avaxmon_validator_uptime_ratio{view="network"}: what decides its reward); the requirement is 90% for validations that started from Helicon on, 80% before.',
      unit: 'percentunit',
      max: 1,
      thresholds: [
        { color: 'red', value: null },
        { color: 'orange', value: 0.8 },
        { color: 'green', value: 0.9 },
      ],
      queries: [{ expr: `avaxmon_validator_uptime_ratio${sel('view="network"')}`, legend: '{{target}}' }],
    }),
    row('Versions'),
    table({
      title: 'Versions',
      description: 'Node id, AvalancheGo version and network of each target (avaxmon_node_info).',
      unit: 'none',
      w: 16,
      rename: {
        target: 'Target',
        node_id: 'Node id',
        version: 'Version',
        network: 'Network',
        database_version: 'Database',
        rpc_protocol_version: 'RPC protocol',
        Value: 'Info',
      },
      queries: [{ expr: `avaxmon_node_info${sel()}` }],
    }),
    bargauge({
      title: 'Peers running a newer version',
      description:
        'Share of peers that run a newer AvalancheGo than the node (avaxmon_node_peers_newer_version_ratio); AvalancheNodeVersionBehind fires above 50%.',
      unit: 'percentunit',
      w: 8,
      min: 0,
      max: 1,
      thresholds: [
        { color: 'green', value: null },
        { color: 'orange', value: 0.5 },
      ],
      queries: [{ expr: `avaxmon_node_peers_newer_version_ratio${sel()}`, legend: '{{target}}' }],
    }),
    row('Collection'),
    boolTimeline({
      title: 'Collector status',
      description: 'Whether the last scheduled run of each collector succeeded (avaxmon_collector_success).',
      w: 24,
      h: 10,
      ok: 'success',
      fail: 'failed',
      queries: [{ expr: `avaxmon_collector_success${sel()}`, legend: '{{target}} {{collector}}' }],
    }),
    timeseries({
      title: 'Data age',
      description:
        'Seconds since the last successful run of each collector (avaxmon_collector_last_success_timestamp_seconds); a growing line is stale data.',
      unit: 's',
      w: 24,
      queries: [{ expr: `time() - avaxmon_collector_last_success_timestamp_seconds${sel()}`, legend: '{{target}} {{collector}}' }],
    }),
  ],
});
