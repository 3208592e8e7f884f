import type { MetricsApiClient } from '../../clients/metrics-api.js';
import { listPages } from '../../clients/pager.js';
import type { MetricsApiConfig } from '../../config/public-api-schema.js';
import { chainMetricGauges } from '../../metrics/catalogue/public-api.js';
import { SampleSet, type Observation } from '../collector.js';
import type { SliceRun, SliceRunContext } from '../run-collector.js';
import { isComplete, newestCompletePoint } from './complete-point.js';

const METRICS_API_JOB = 'metrics_api';

/** The Metrics API job: for each chain and metric, the newest complete data point. */
export function createMetricsApiRun(config: MetricsApiConfig, client: MetricsApiClient): SliceRun {
  return {
    target: METRICS_API_JOB,
    collector: METRICS_API_JOB,
    intervalMs: config.interval,
    origin: new URL(config.url).origin,
    collect: (ctx) => collectChainMetrics(config, client, ctx),
  };
}

async function collectChainMetrics(config: MetricsApiConfig, client: MetricsApiClient, ctx: SliceRunContext): Promise<Observation> {
  client.rest.beginRun();
  const nowSeconds = ctx.nowMs / 1000;
  const out = new SampleSet({});
  // One request at a time: the client spaces them, and a public API deserves no bursts.
  for (const chainId of config.chains) {
    for (const { name, interval } of config.metrics) {
      const listing = await listPages(
        (pageToken) => client.chainMetricPage({ chainId, metric: name, interval, pageSize: config.page_size, pageToken }, ctx.signal),
        {
          maxPages: config.max_pages,
          enough: (points) => points.some((point) => isComplete(point, interval, nowSeconds)),
          onRestart: (error) =>
            ctx.log.info({ chainId, metric: name, err: error }, 'Page token expired; listing again from the first page'),
        },
      );
      const point = newestCompletePoint(listing.items, interval, nowSeconds);
      if (!point) {
        ctx.log.info(
          { chainId, metric: name, interval, pages: config.max_pages },
          'No complete data point yet; nothing to export for this metric',
        );
        continue;
      }
      out.add(chainMetricGauges[name].name, { chain_id: chainId, interval }, point.value);
      out.add('avaxmon_chain_metric_timestamp_seconds', { chain_id: chainId, metric: name, interval }, point.timestamp);
    }
  }
  ctx.log.debug({ requests: client.rest.requestsThisRun }, 'Metrics API run finished');
  return out.observation();
}
