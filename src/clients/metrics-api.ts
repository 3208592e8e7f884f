import { FieldReader } from './parse.js';
import type { Page } from './pager.js';
import type { RestApiClient } from './rest-api.js';

/** The 17 metrics of `GET /v2/chains/{chainId}/metrics/{metric}`. */
export const V2_METRICS = [
  'activeAddresses',
  'activeSenders',
  'cumulativeTxCount',
  'cumulativeAddresses',
  'cumulativeContracts',
  'cumulativeDeployers',
  'contracts',
  'deployers',
  'gasUsed',
  'txCount',
  'avgGps',
  'maxGps',
  'avgTps',
  'maxTps',
  'avgGasPrice',
  'maxGasPrice',
  'feesPaid',
] as const;

/** The v1 route `GET /v1/avg_tps/{chainId}`, configured under its route name. */
const V1_AVG_TPS = 'avg_tps';

export const METRICS_API_METRICS = [...V2_METRICS, V1_AVG_TPS] as const;
export type MetricsApiMetric = (typeof METRICS_API_METRICS)[number];

export const TIME_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type TimeInterval = (typeof TIME_INTERVALS)[number];

/** Chain ids the v2 route accepts besides EVM chain ids. */
export const CHAIN_AGGREGATES = ['total', 'mainnet', 'testnet'] as const;

/**
 * The API's rule: metrics named cumulative*, avg* or max*, and `contracts` and `deployers`, exist
 * only per day. The v1 avg_tps route is daily too.
 */
export function supportedIntervals(metric: MetricsApiMetric): readonly TimeInterval[] {
  if (metric === V1_AVG_TPS || /^(cumulative|avg|max)/.test(metric) || metric === 'contracts' || metric === 'deployers') return ['day'];
  return TIME_INTERVALS;
}

export interface MetricPoint {
  readonly value: number;
  /** Unix seconds: the start of the interval the point covers. */
  readonly timestamp: number;
}

export const V2_ROUTE = 'GET /v2/chains/{chainId}/metrics/{metric}';
export const V1_AVG_TPS_ROUTE = 'GET /v1/avg_tps/{chainId}';

/** Typed access to the Metrics API (no key; its error messages are arrays of strings). */
export class MetricsApiClient {
  constructor(readonly rest: RestApiClient) {}

  async chainMetricPage(
    query: { chainId: string; metric: MetricsApiMetric; interval: TimeInterval; pageSize: number; pageToken?: string },
    signal: AbortSignal,
  ): Promise<Page<MetricPoint>> {
    if (query.metric === V1_AVG_TPS) return this.avgTpsPage(query.chainId, query.pageToken, signal);
    const body = await this.rest.getJson({
      route: V2_ROUTE,
      path: `v2/chains/${encodeURIComponent(query.chainId)}/metrics/${query.metric}`,
      query: { timeInterval: query.interval, pageSize: query.pageSize, pageToken: query.pageToken },
      signal,
    });
    return readPage(body, V2_ROUTE, this.rest.options.api);
  }

  /**
   * The v1 route's spec names its paging keys nextPageStartKey/startKey while the usage guide says
   * nextPageToken/pageToken; we read either and send the token back under both names.
   */
  private async avgTpsPage(chainId: string, pageToken: string | undefined, signal: AbortSignal): Promise<Page<MetricPoint>> {
    const body = await this.rest.getJson({
      route: V1_AVG_TPS_ROUTE,
      path: `v1/avg_tps/${encodeURIComponent(chainId)}`,
      query: { pageToken, startKey: pageToken },
      signal,
    });
    return readPage(body, V1_AVG_TPS_ROUTE, this.rest.options.api);
  }
}

function readPage(body: unknown, route: string, api: string): Page<MetricPoint> {
  const read = new FieldReader(api, route);
  const object = read.object(body, 'body');
  const items = read.array(object.results, 'results').map((entry, index) => {
    const point = read.object(entry, `results[${index}]`);
    return {
      value: read.number(point.value, `results[${index}].value`),
      timestamp: read.number(point.timestamp, `results[${index}].timestamp`),
    };
  });
  const token = object.nextPageToken ?? object.nextPageStartKey;
  return { items, nextPageToken: typeof token === 'string' && token !== '' ? token : undefined };
}
