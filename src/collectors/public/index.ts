import { DataApiClient } from '../../clients/data-api.js';
import type { HttpClient } from '../../clients/http.js';
import { MetricsApiClient } from '../../clients/metrics-api.js';
import { RestApiClient, type PublicApiName, type RequestCounter, type RestApiOptions } from '../../clients/rest-api.js';
import type { DataApiConfig } from '../../config/public-api-schema.js';
import type { Config } from '../../config/schema.js';
import type { SliceRun } from '../run-collector.js';
import { createDataApiRun } from './data-api.js';
import { createMetricsApiRun } from './metrics-api.js';

/**
 * The public-API jobs: global, not per target. The REST clients outlive reloads while the API's
 * URL is unchanged, so a 429 backoff is honoured across a reload too.
 */
export class PublicApiJobs {
  private readonly clients = new Map<PublicApiName, RestApiClient>();

  constructor(
    private readonly http: HttpClient,
    private readonly counter: RequestCounter,
  ) {}

  build(config: Config): SliceRun[] {
    const runs: SliceRun[] = [];
    const metrics = config.metrics_api;
    if (metrics) {
      const rest = this.client({
        api: 'metrics_api',
        baseUrl: metrics.url,
        headers: {},
        timeoutMs: metrics.timeout,
        maxRequestsPerRun: metrics.max_requests_per_run,
        requestSpacingMs: metrics.request_spacing,
        maxRetryWaitMs: metrics.max_retry_wait,
      });
      runs.push(createMetricsApiRun(metrics, new MetricsApiClient(rest)));
    }
    const data = config.data_api;
    if (data) {
      const rest = this.client({
        api: 'data_api',
        baseUrl: data.url,
        headers: data.api_key === undefined ? {} : { 'x-data-api-key': data.api_key },
        timeoutMs: data.timeout,
        maxRequestsPerRun: data.max_requests_per_run,
        requestSpacingMs: data.request_spacing,
        maxRetryWaitMs: data.max_retry_wait,
        describeAuthFailure: (status) => describeDataApiAuthFailure(status, data),
      });
      runs.push(createDataApiRun(data, new DataApiClient(rest)));
    }
    for (const api of [...this.clients.keys()]) if (!runs.some((run) => run.target === api)) this.clients.delete(api);
    return runs;
  }

  private client(options: RestApiOptions): RestApiClient {
    const client = new RestApiClient(this.http, this.counter, options);
    const previous = this.clients.get(options.api);
    if (previous?.options.baseUrl === options.baseUrl) client.inheritBackoff(previous);
    this.clients.set(options.api, client);
    return client;
  }
}

function describeDataApiAuthFailure(status: number, config: DataApiConfig): string {
  if (status === 403) return 'Data API key lacks privilege for this route';
  if (config.api_key === undefined) return 'Data API key missing: set data_api.api_key or data_api.api_key_file';
  return 'Data API key missing or not accepted: check data_api.api_key / api_key_file';
}
