import type { MetricDesc } from '../metric-desc.js';
import { selfMetrics } from './self.js';
import { nodeMetrics } from './node.js';
import { probeMetrics } from './probe.js';
import { publicApiMetrics } from './public-api.js';
import { validatorsCatalogue } from './validators.js';
import { chainsCatalogue } from './chains.js';
import { alertsMetrics } from './alerts.js';
import { callUpMetrics } from './call-up.js';

/**
 * Every metric avaxmon exports, in exposition order. Metric names are a public contract:
 * docs/metrics.md is generated from this list and a test keeps the two in sync.
 */
export const allMetrics: readonly MetricDesc[] = [
  ...selfMetrics,
  ...nodeMetrics,
  ...probeMetrics,
  ...publicApiMetrics,
  ...callUpMetrics,
  ...validatorsCatalogue,
  ...chainsCatalogue,
  ...alertsMetrics,
];

export const catalogue: ReadonlyMap<string, MetricDesc> = new Map(allMetrics.map((desc) => [desc.name, desc]));
