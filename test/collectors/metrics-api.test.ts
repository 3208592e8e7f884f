import { afterEach, describe, expect, it } from 'vitest';
import { V1_AVG_TPS_ROUTE, V2_ROUTE } from '../../src/clients/metrics-api.js';
import { publicApiWorld } from '../../src/simulator/rest/public-api-world.js';
import { intervalStart, simulatedMetricValue } from '../../src/simulator/rest/metrics-api.js';
import { startPublicApiHarness, type PublicApiHarness } from './public-api-harness.js';

const DAY = 86_400;
let harness: PublicApiHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function metricsApi(extra = ''): (url: string) => string {
  return (url) => `
metrics_api:
  url: ${url}
  interval: 1h
  chains: [43114, total]
  metrics: [txCount, activeAddresses, gasUsed, feesPaid, avgTps, maxTps, cumulativeTxCount, avg_tps, { name: txCount, time_interval: hour }]
  time_interval: day
  request_spacing: 0s
${extra}
`;
}

const yesterday = () => intervalStart(Date.now() / 1000, 'day') - DAY;

describe('Metrics API collector', () => {
  it('exports the newest complete data point of every chain, metric and interval, with its timestamp', async () => {
    harness = await startPublicApiHarness(metricsApi());
    const result = await harness.run('metrics_api');
    expect(result.success).toBe(true);
    const day = yesterday();
    for (const chain of ['43114', 'total']) {
      expect(harness.value('avaxmon_chain_transactions', { chain_id: chain, interval: 'day' })).toBe(
        simulatedMetricValue(chain, 'txCount', day),
      );
      expect(harness.value('avaxmon_chain_avg_tps', { chain_id: chain, interval: 'day' })).toBe(simulatedMetricValue(chain, 'avgTps', day));
      expect(harness.value('avaxmon_chain_fees_paid_wei', { chain_id: chain })).toBe(simulatedMetricValue(chain, 'feesPaid', day));
      expect(harness.value('avaxmon_chain_cumulative_transactions', { chain_id: chain })).toBe(
        simulatedMetricValue(chain, 'cumulativeTxCount', day),
      );
      expect(harness.value('avaxmon_chain_avg_tps_v1', { chain_id: chain })).toBe(simulatedMetricValue(chain, 'avg_tps', day));
      expect(harness.value('avaxmon_chain_metric_timestamp_seconds', { chain_id: chain, metric: 'txCount', interval: 'day' })).toBe(day);
      const lastHour = intervalStart(Date.now() / 1000, 'hour') - 3600;
      expect(harness.value('avaxmon_chain_transactions', { chain_id: chain, interval: 'hour' })).toBe(
        simulatedMetricValue(chain, 'txCount', lastHour),
      );
      expect(harness.value('avaxmon_chain_metric_timestamp_seconds', { chain_id: chain, metric: 'txCount', interval: 'hour' })).toBe(
        lastHour,
      );
    }
    // 2 chains x 9 metrics, each answered by its first page (page_size 3 holds the current and the complete point).
    expect(harness.requests('metrics')).toHaveLength(18);
    expect(harness.selfValue('avaxmon_rpc_requests_total', { target: 'metrics_api', method: V2_ROUTE, outcome: 'success' })).toBe(16);
    expect(harness.selfValue('avaxmon_rpc_requests_total', { target: 'metrics_api', method: V1_AVG_TPS_ROUTE, outcome: 'success' })).toBe(
      2,
    );
    expect(harness.selfValue('avaxmon_collector_success', { target: 'metrics_api', collector: 'metrics_api' })).toBe(1);
  });

  it('follows nextPageToken until a complete point is found, and stops there', async () => {
    harness = await startPublicApiHarness(metricsApi('  page_size: 1'));
    expect((await harness.run('metrics_api')).success).toBe(true);
    expect(harness.value('avaxmon_chain_transactions', { chain_id: '43114', interval: 'day' })).toBe(
      simulatedMetricValue('43114', 'txCount', yesterday()),
    );
    const txCount = harness.requests('metrics').filter((request) => request.path === '/v2/chains/43114/metrics/txCount');
    // Day and hour listings: page 1 is the incomplete current interval, page 2 the complete one.
    expect(txCount.map((request) => request.pageToken === undefined)).toEqual([true, false, true, false]);
  });

  it('restarts a listing from the first page when its page token has expired', async () => {
    harness = await startPublicApiHarness(
      (url) => `
metrics_api: { url: ${url}, chains: [43114], metrics: [txCount], page_size: 1, request_spacing: 0s }
`,
    );
    harness.sim.apply({ expire_page_tokens: { next: 1 } });
    expect((await harness.run('metrics_api')).success).toBe(true);
    const requests = harness.requests('metrics');
    expect(requests.map((request) => [request.pageToken === undefined, request.status])).toEqual([
      [true, 200],
      [false, 400],
      [true, 200],
      [false, 200],
    ]);
    expect(harness.value('avaxmon_chain_transactions', { chain_id: '43114' })).toBe(simulatedMetricValue('43114', 'txCount', yesterday()));
    expect(harness.logs.some((line) => line.includes('Page token expired'))).toBe(true);
  });

  it('waits out a short Retry-After and sends nothing before it', async () => {
    harness = await startPublicApiHarness(
      (url) => `
metrics_api: { url: ${url}, chains: [43114], metrics: [txCount], request_spacing: 0s, max_retry_wait: 5s }
`,
    );
    harness.sim.apply({ public_api_rate_limit: { api: 'metrics', retry_after: '400ms' } });
    const limitedUntil = publicApiWorld(harness.sim.state).rateLimitedUntilMs.metrics;
    expect((await harness.run('metrics_api')).success).toBe(true);
    const [first, ...rest] = harness.requests('metrics');
    expect(first.status).toBe(429);
    expect(rest.length).toBeGreaterThan(0);
    for (const request of rest) expect(request.atMs).toBeGreaterThanOrEqual(limitedUntil);
    expect(harness.selfValue('avaxmon_rpc_requests_total', { target: 'metrics_api', method: V2_ROUTE, outcome: 'http_4xx' })).toBe(1);
  });

  it('says Retry-After in whole seconds, or in decimal seconds when the rate limit given is not whole seconds', async () => {
    harness = await startPublicApiHarness(metricsApi());
    const retryAfter = async () => (await fetch(`${harness!.sim.url}/v2/chains/43114/metrics/txCount`)).headers.get('retry-after');
    harness.sim.apply({ public_api_rate_limit: { api: 'metrics', retry_after: '2s' } });
    expect(await retryAfter()).toBe('2');
    harness.sim.apply({ public_api_rate_limit: { api: 'metrics', retry_after: '400ms' } });
    expect(Number(await retryAfter())).toBeGreaterThan(0.3);
    expect(Number(await retryAfter())).toBeLessThanOrEqual(0.4);
  });

  it('fails the run on a long Retry-After and sends no request until that time, even from the next run', async () => {
    harness = await startPublicApiHarness(
      (url) => `
metrics_api: { url: ${url}, chains: [43114], metrics: [txCount], request_spacing: 0s, max_retry_wait: 100ms }
`,
    );
    expect((await harness.run('metrics_api')).success).toBe(true);
    expect(harness.samples('metrics_api').length).toBeGreaterThan(0);
    harness.sim.apply({ public_api_rate_limit: { api: 'metrics', retry_after: '800ms' } });
    const limitedUntil = publicApiWorld(harness.sim.state).rateLimitedUntilMs.metrics;

    const failed = await harness.run('metrics_api');
    expect(failed.success).toBe(false);
    expect(String((failed.error as Error).message)).toMatch(/HTTP 429/);
    expect(harness.samples('metrics_api')).toEqual([]);
    expect(harness.selfValue('avaxmon_collector_success', { target: 'metrics_api', collector: 'metrics_api' })).toBe(0);
    const sentSoFar = harness.requests('metrics').length;

    const skipped = await harness.run('metrics_api');
    expect(skipped.success).toBe(false);
    expect(String((skipped.error as Error).message)).toMatch(/rate limited .*sending nothing until/);
    expect(harness.requests('metrics')).toHaveLength(sentSoFar);

    await new Promise((resolve) => setTimeout(resolve, limitedUntil - Date.now() + 50));
    expect((await harness.run('metrics_api')).success).toBe(true);
    expect(harness.requests('metrics').at(-1)!.atMs).toBeGreaterThanOrEqual(limitedUntil);
    expect(harness.value('avaxmon_chain_transactions', { chain_id: '43114' })).toBeGreaterThan(0);
  });

  it('fails the run on a 503 without retrying, and recovers on the next run', async () => {
    harness = await startPublicApiHarness(
      (url) => `
metrics_api: { url: ${url}, chains: [43114], metrics: [txCount, gasUsed], request_spacing: 0s }
`,
    );
    expect((await harness.run('metrics_api')).success).toBe(true);
    harness.sim.apply({ public_api_unavailable: { api: 'metrics', for: '300ms' } });
    const failed = await harness.run('metrics_api');
    expect(failed.success).toBe(false);
    expect(String((failed.error as Error).message)).toContain('HTTP 503: Service Unavailable');
    expect(harness.requests('metrics').filter((request) => request.status === 503)).toHaveLength(1);
    expect(harness.samples('metrics_api')).toEqual([]);
    expect(harness.selfValue('avaxmon_rpc_requests_total', { target: 'metrics_api', method: V2_ROUTE, outcome: 'http_5xx' })).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await harness.run('metrics_api')).success).toBe(true);
    expect(harness.value('avaxmon_chain_gas_used', { chain_id: '43114' })).toBe(simulatedMetricValue('43114', 'gasUsed', yesterday()));
  });

  it('stops at the request budget of a run', async () => {
    harness = await startPublicApiHarness(
      (url) => `
metrics_api: { url: ${url}, chains: [43114, 43113, total], metrics: [txCount], request_spacing: 0s, max_requests_per_run: 2 }
`,
    );
    const result = await harness.run('metrics_api');
    expect(result.success).toBe(false);
    expect(String((result.error as Error).message)).toContain('request budget of 2 per run exhausted');
    expect(harness.requests('metrics')).toHaveLength(2);
  });

  it('serves newest-first pages without nextPageToken on the last page, and array error messages', async () => {
    harness = await startPublicApiHarness(metricsApi());
    const url = `${harness.sim.url}/v2/chains/43114/metrics/txCount?timeInterval=day&pageSize=2&startTimestamp=${yesterday() - DAY}`;
    const first = (await (await fetch(url)).json()) as { results: Array<{ timestamp: number }>; nextPageToken?: string };
    expect(first.results.map((point) => point.timestamp)).toEqual([yesterday() + DAY, yesterday()]);
    const last = (await (await fetch(`${url}&pageToken=${first.nextPageToken}`)).json()) as Record<string, unknown>;
    expect(last).not.toHaveProperty('nextPageToken');
    const bad = await fetch(`${harness.sim.url}/v2/chains/43114/metrics/avgTps?timeInterval=hour`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: ['avgTps only supports timeInterval day'], error: 'Bad Request', statusCode: 400 });
  });
});
