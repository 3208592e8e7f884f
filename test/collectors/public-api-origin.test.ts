import { describe, expect, it } from 'vitest';
import { createDataApiRun } from '../../src/collectors/public/data-api.js';
import { createMetricsApiRun } from '../../src/collectors/public/metrics-api.js';
import { parseConfig } from '../../src/config/load.js';

describe('public API jobs and the per-origin cap', () => {
  it('name the API host as their origin, so max_concurrent_collections_per_origin covers them', () => {
    const config = parseConfig(`
metrics_api: { url: "https://metrics.example:8443/base", chains: [43114], metrics: [txCount] }
data_api: { url: "https://glacier.example", delegators: { node_ids: [NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg] } }
`);
    expect(createMetricsApiRun(config.metrics_api!, {} as never).origin).toBe('https://metrics.example:8443');
    expect(createDataApiRun(config.data_api!, {} as never).origin).toBe('https://glacier.example');
  });
});
