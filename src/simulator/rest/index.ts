import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimState } from '../state.js';
import { dataApiRoute } from './data-api.js';
import { metricsApiRoute } from './metrics-api.js';

/** A REST route of a simulated public API; returns true when it answered the request. */
export type RestRoute = (state: SimState, request: IncomingMessage, url: URL, response: ServerResponse, nowMs: number) => Promise<boolean> | boolean;

/** The simulated Metrics API and Data API routes, tried before the node's own routes. */
export const restRoutes: RestRoute[] = [metricsApiRoute, dataApiRoute];
