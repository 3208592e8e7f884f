import { V2_METRICS, supportedIntervals, type MetricPoint, type MetricsApiMetric, type TimeInterval } from '../../clients/metrics-api.js';
import { intervalEndSeconds } from '../../collectors/public/complete-point.js';
import type { RestRoute } from './route.js';
import {
  hasHeader,
  logRequest,
  pageSizeOf,
  paginate,
  publicApiWorld,
  scriptedFailure,
  sendApiError,
  sendOk,
  type PublicApiWorld,
} from './public-api-world.js';

const V2_PATH = /^\/v2\/chains\/([^/]+)\/metrics\/([^/]+)$/;
const V1_PATH = /^\/v1\/avg_tps\/([^/]+)$/;
const HISTORY_POINTS = 400;
const V1_PAGE_SIZE = 10;

/** The Metrics API: v2 chain metrics and the v1 avg_tps route, newest first, paged by token. */
export const metricsApiRoute: RestRoute = (state, request, url, response, nowMs) => {
  const v2 = V2_PATH.exec(url.pathname);
  const v1 = V1_PATH.exec(url.pathname);
  if (request.method !== 'GET' || (!v2 && !v1)) return false;
  const world = publicApiWorld(state);
  const status =
    scriptedFailure(world, 'metrics', response, nowMs) ||
    (v2 ? chainMetric(world, url, v2, response, nowMs) : avgTpsV1(world, url, v1!, response, nowMs));
  logRequest(world, {
    api: 'metrics',
    path: url.pathname,
    atMs: nowMs,
    status,
    pageToken: url.searchParams.get('pageToken') ?? undefined,
    hasKey: hasHeader(request, 'x-data-api-key'),
  });
  return true;
};

function chainMetric(
  world: PublicApiWorld,
  url: URL,
  [, chainId, metric]: RegExpExecArray,
  response: Parameters<RestRoute>[3],
  nowMs: number,
): number {
  if (!(V2_METRICS as readonly string[]).includes(metric))
    return badRequest(response, `metric must be one of the following values: ${V2_METRICS.join(', ')}`);
  const interval = (url.searchParams.get('timeInterval') ?? 'day') as TimeInterval;
  if (!supportedIntervals(metric as MetricsApiMetric).includes(interval))
    return badRequest(response, `${metric} only supports timeInterval day`);
  const pageSize = pageSizeOf(url, 100, 2160);
  if (pageSize === undefined) return badRequest(response, 'pageSize must not be greater than 2160 and not less than 1');
  const start = Number(url.searchParams.get('startTimestamp') ?? 0);
  const end = Number(url.searchParams.get('endTimestamp') ?? Number.MAX_SAFE_INTEGER);
  const points = history(chainId, metric, interval, nowMs / 1000).filter((point) => point.timestamp >= start && point.timestamp <= end);
  const listing = `${chainId}/${metric}/${interval}/${start}/${end}`;
  const result = paginate(world, listing, points, pageSize, url.searchParams.get('pageToken'));
  if ('error' in result) return badRequest(response, result.error);
  sendOk(response, { results: result.page, ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}) });
  return 200;
}

function avgTpsV1(
  world: PublicApiWorld,
  url: URL,
  [, chainId]: RegExpExecArray,
  response: Parameters<RestRoute>[3],
  nowMs: number,
): number {
  const token = url.searchParams.get('pageToken') ?? url.searchParams.get('startKey');
  const result = paginate(world, `v1/${chainId}`, history(chainId, 'avg_tps', 'day', nowMs / 1000), V1_PAGE_SIZE, token);
  if ('error' in result) return badRequest(response, result.error);
  const lastRun = Math.floor(nowMs / 1000 / 600) * 600;
  sendOk(response, {
    results: result.page,
    status: 200,
    lastRun,
    ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}),
  });
  return 200;
}

function badRequest(response: Parameters<RestRoute>[3], message: string): number {
  sendApiError(response, 'metrics', 400, message);
  return 400;
}

/** Newest first, starting with the current (incomplete) interval, whose value is still partial. */
export function history(chainId: string, metric: string, interval: TimeInterval, nowSeconds: number): MetricPoint[] {
  const points: MetricPoint[] = [];
  let start = intervalStart(nowSeconds, interval);
  for (let index = 0; index < HISTORY_POINTS; index++) {
    const end = intervalEndSeconds(start, interval);
    const elapsed = Math.min(1, (nowSeconds - start) / (end - start));
    points.push({ timestamp: start, value: simulatedMetricValue(chainId, metric, start) * (isSum(metric) ? elapsed : 1) });
    start = previousStart(start, interval);
  }
  return points;
}

/** The value of a complete data point: deterministic, so tests can compute what to expect. */
export function simulatedMetricValue(chainId: string, metric: string, timestamp: number): number {
  const base = BASE_VALUES[metric] ?? 100;
  const wobble = 1 + ((Math.floor(timestamp / 3600) + chainId.length) % 7) / 10;
  if (metric.startsWith('cumulative')) return Math.round(base + timestamp / 60);
  return Math.round(base * wobble * 1000) / 1000;
}

const BASE_VALUES: Record<string, number> = {
  activeAddresses: 42_000,
  activeSenders: 30_000,
  cumulativeTxCount: 400_000_000,
  cumulativeAddresses: 20_000_000,
  cumulativeContracts: 3_000_000,
  cumulativeDeployers: 200_000,
  contracts: 900,
  deployers: 120,
  gasUsed: 9_000_000_000,
  txCount: 350_000,
  avgGps: 110_000,
  maxGps: 4_000_000,
  avgTps: 4.2,
  maxTps: 95,
  avgGasPrice: 30_000_000_000,
  maxGasPrice: 900_000_000_000,
  feesPaid: 2.4e21,
  avg_tps: 4.1,
};

/** Sums over an interval grow while it runs; averages and maxima do not. */
function isSum(metric: string): boolean {
  return ['activeAddresses', 'activeSenders', 'contracts', 'deployers', 'gasUsed', 'txCount', 'feesPaid'].includes(metric);
}

export function intervalStart(seconds: number, interval: TimeInterval): number {
  const date = new Date(seconds * 1000);
  if (interval === 'hour') return Math.floor(seconds / 3600) * 3600;
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) / 1000;
  if (interval === 'day') return day;
  if (interval === 'week') return day - ((date.getUTCDay() + 6) % 7) * 86_400;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

function previousStart(start: number, interval: TimeInterval): number {
  if (interval === 'hour') return start - 3600;
  if (interval === 'day') return start - 86_400;
  if (interval === 'week') return start - 7 * 86_400;
  const date = new Date(start * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1) / 1000;
}
