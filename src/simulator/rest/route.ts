import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimState } from '../state.js';

/** A REST route of a simulated public API; returns true when it answered the request. */
export type RestRoute = (
  state: SimState,
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
  nowMs: number,
) => Promise<boolean> | boolean;
