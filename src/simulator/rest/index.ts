import { dataApiRoute } from './data-api.js';
import { metricsApiRoute } from './metrics-api.js';
import type { RestRoute } from './route.js';

export type { RestRoute } from './route.js';

/** The simulated Metrics API and Data API routes, tried before the node's own routes. */
export const restRoutes: RestRoute[] = [metricsApiRoute, dataApiRoute];
