import { counter, gauge } from '../metric-desc.js';

// Collection runs on a schedule, not on scrape (the exporter guidelines' exception for expensive
// collection), so staleness is exported explicitly by the last-success timestamp.
export const selfMetrics = [
  gauge('avaxmon_build_info', 'Build information of this avaxmon; constant 1.', ['version', 'node_version', 'revision']),
  gauge('avaxmon_target_up', 'Whether the last request to the target node got an HTTP answer (1) or failed at the transport (0).', [
    'target',
  ]),
  gauge(
    'avaxmon_collector_success',
    'Whether the last scheduled run of the collector succeeded. Collection runs on a schedule, not on scrape.',
    ['target', 'collector'],
  ),
  gauge(
    'avaxmon_collector_facts_age_seconds',
    'Present while the collector fails: the age of its last good run, whose page-deciding facts (validation end, renewal, the deciding view, L1 balances) stay exported and evaluated until global.stale_facts_max_age.',
    ['target', 'collector'],
  ),
  gauge('avaxmon_collector_duration_seconds', 'Duration of the last run of the collector.', ['target', 'collector']),
  gauge(
    'avaxmon_collector_last_success_timestamp_seconds',
    'Unix time of the last successful run of the collector; use it to detect stale data.',
    ['target', 'collector'],
  ),
  gauge(
    'avaxmon_collector_interval_seconds',
    'How often the collector is scheduled to run; AvaxmonCollectorFailing fires after a few of these without success.',
    ['target', 'collector'],
  ),
  counter('avaxmon_collector_skipped_runs_total', 'Scheduled runs of the collector skipped because its previous run was still in flight.', [
    'target',
    'collector',
  ]),
  counter(
    'avaxmon_collector_abandoned_runs_total',
    'Runs of the collector that did not end after their deadline and abort, and were abandoned (their series removed).',
    ['target', 'collector'],
  ),
  gauge(
    'avaxmon_collectors_lagging',
    'Collectors whose last success is older than two of their intervals although their last run succeeded: collection is behind (CPU, concurrency caps), not the node failing.',
    [],
  ),
  gauge(
    'avaxmon_collection_concurrency_limit',
    'Collector runs allowed in flight at once now: global.max_concurrent_collections, or fewer while the event loop is saturated.',
    [],
  ),
  counter(
    'avaxmon_collection_late_runs_total',
    'Runs that started more than 1 s after their scheduled time, waiting for the event loop or a concurrency slot.',
    ['collector'],
  ),
  counter('avaxmon_rpc_requests_total', 'Upstream requests by method and outcome.', ['target', 'method', 'outcome']),
  counter(
    'avaxmon_request_queue_wait_seconds_total',
    "Seconds the target's requests waited for a free connection before they were sent: avaxmon's own lateness, outside each request's timeout.",
    ['target'],
  ),
  gauge('avaxmon_config_last_reload_successful', 'Whether the last configuration reload succeeded.', []),
  gauge('avaxmon_config_last_reload_success_timestamp_seconds', 'Unix time of the last successful configuration load.', []),
] as const;
