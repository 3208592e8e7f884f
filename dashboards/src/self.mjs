import { boolTimeline, dashboard, jobSel, row, sel, stat, table, timeseries } from './builder.mjs';

export default dashboard({
  uid: 'avaxmon-self',
  title: 'avaxmon / avaxmon itself',
  description:
    "avaxmon's own health: collector duration and success, upstream RPC outcomes, the notification queue and delivery, alerts and config reloads.",
  panels: [
    row('Build and config'),
    table({
      title: 'Build',
      description: 'Version, Node.js version and revision of each avaxmon instance (avaxmon_build_info).',
      unit: 'none',
      w: 16,
      h: 5,
      rename: { version: 'Version', node_version: 'Node.js', revision: 'Revision', Value: 'Info' },
      queries: [{ expr: `avaxmon_build_info${jobSel()}` }],
    }),
    stat({
      title: 'Last successful config load',
      description: 'When each avaxmon instance last loaded its config successfully (avaxmon_config_last_reload_success_timestamp_seconds).',
      unit: 'dateTimeFromNow',
      w: 8,
      h: 5,
      queries: [{ expr: `avaxmon_config_last_reload_success_timestamp_seconds${jobSel()} * 1000`, legend: '{{instance}}' }],
    }),
    boolTimeline({
      title: 'Config reload',
      description:
        'Whether the last configuration reload of each instance succeeded (avaxmon_config_last_reload_successful); a failed reload keeps the old config.',
      ok: 'ok',
      fail: 'failed',
      queries: [{ expr: `avaxmon_config_last_reload_successful${jobSel()}`, legend: '{{instance}}' }],
    }),
    boolTimeline({
      title: 'Scraped',
      description: "Whether Prometheus' last scrape of each avaxmon instance succeeded (up); AvaxmonDown and AvaxmonAbsent fire on it.",
      ok: 'up',
      fail: 'down',
      queries: [{ expr: `up${jobSel()}`, legend: '{{instance}}' }],
    }),
    row('Collection'),
    timeseries({
      title: 'Collector duration',
      description: 'Duration of the last run of each collector (avaxmon_collector_duration_seconds).',
      unit: 's',
      queries: [{ expr: `avaxmon_collector_duration_seconds${sel()}`, legend: '{{target}} {{collector}}' }],
    }),
    boolTimeline({
      title: 'Collector success',
      description: 'Whether the last scheduled run of each collector succeeded (avaxmon_collector_success).',
      ok: 'success',
      fail: 'failed',
      queries: [{ expr: `avaxmon_collector_success${sel()}`, legend: '{{target}} {{collector}}' }],
    }),
    timeseries({
      title: 'Collection behind schedule',
      description:
        'Collectors whose data is older than two of their intervals although their runs succeed (avaxmon_collectors_lagging), and runs per second that started more than 1 s late (avaxmon_collection_late_runs_total) or were skipped (avaxmon_collector_skipped_runs_total).',
      unit: 'short',
      queries: [
        { expr: `avaxmon_collectors_lagging${jobSel()}`, legend: '{{instance}} lagging collectors' },
        {
          expr: `sum by (instance) (rate(avaxmon_collection_late_runs_total${jobSel()}[$__rate_interval]))`,
          legend: '{{instance}} late runs/s',
        },
        {
          expr: `sum by (instance) (rate(avaxmon_collector_skipped_runs_total${sel()}[$__rate_interval]))`,
          legend: '{{instance}} skipped runs/s',
        },
      ],
    }),
    timeseries({
      title: 'Upstream requests by outcome',
      description: 'Requests per second to the nodes and public APIs, by outcome (avaxmon_rpc_requests_total).',
      unit: 'reqps',
      queries: [{ expr: `sum by (outcome) (rate(avaxmon_rpc_requests_total${sel()}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
    timeseries({
      title: 'Upstream error ratio by method',
      description:
        'Share of the requests of each method that did not succeed (avaxmon_rpc_requests_total with outcome other than success).',
      unit: 'percentunit',
      min: 0,
      max: 1,
      queries: [
        {
          expr: `1 - sum by (method) (rate(avaxmon_rpc_requests_total${sel('outcome="success"')}[$__rate_interval])) / sum by (method) (rate(avaxmon_rpc_requests_total${sel()}[$__rate_interval]))`,
          legend: '{{method}}',
        },
      ],
    }),
    timeseries({
      title: 'Upstream requests by method',
      description: 'Requests per second by API method and target (avaxmon_rpc_requests_total).',
      unit: 'reqps',
      w: 24,
      queries: [
        { expr: `sum by (target, method) (rate(avaxmon_rpc_requests_total${sel()}[$__rate_interval]))`, legend: '{{target}} {{method}}' },
      ],
    }),
    row('Alerting'),
    timeseries({
      title: 'Notification queue',
      description: 'Notifications waiting in the durable outbox (avaxmon_notification_queue_depth).',
      unit: 'short',
      w: 8,
      min: 0,
      queries: [{ expr: `avaxmon_notification_queue_depth${jobSel()}`, legend: '{{instance}}' }],
    }),
    timeseries({
      title: 'Oldest queued notification',
      description:
        'Age of the oldest notification still waiting for delivery (avaxmon_notification_oldest_queued_age_seconds); it grows while a receiver is down.',
      unit: 's',
      w: 8,
      min: 0,
      queries: [{ expr: `avaxmon_notification_oldest_queued_age_seconds${jobSel()}`, legend: '{{instance}}' }],
    }),
    timeseries({
      title: 'Notification deliveries',
      description: 'Delivery attempts per second by receiver and outcome (avaxmon_notifications_total).',
      unit: 'ops',
      w: 8,
      queries: [
        {
          expr: `sum by (receiver, outcome) (rate(avaxmon_notifications_total${jobSel()}[$__rate_interval]))`,
          legend: '{{receiver}} {{outcome}}',
        },
      ],
    }),
    timeseries({
      title: 'Alerts by state',
      description: 'Alerts of the built-in engine by rule and state (avaxmon_alerts).',
      unit: 'short',
      w: 24,
      min: 0,
      queries: [{ expr: `sum by (rule, state) (avaxmon_alerts${jobSel()})`, legend: '{{rule}} {{state}}' }],
    }),
    row('Process'),
    timeseries({
      title: 'Memory',
      description: 'Resident memory of each avaxmon process (process_resident_memory_bytes).',
      unit: 'bytes',
      queries: [{ expr: `process_resident_memory_bytes${jobSel()}`, legend: '{{instance}}' }],
    }),
    timeseries({
      title: 'Event loop lag',
      description:
        'Node.js event loop lag of each avaxmon process (nodejs_eventloop_lag_seconds); high values delay collection and scrapes.',
      unit: 's',
      queries: [{ expr: `nodejs_eventloop_lag_seconds${jobSel()}`, legend: '{{instance}}' }],
    }),
  ],
});
