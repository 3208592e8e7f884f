import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { SimState } from '../state.js';

export type SimApi = 'metrics' | 'data';

export interface SimApiRequest {
  readonly api: SimApi;
  readonly path: string;
  readonly atMs: number;
  readonly status: number;
  readonly pageToken?: string;
  readonly hasKey: boolean;
}

interface IssuedToken {
  readonly listing: string;
  readonly offset: number;
  expired: boolean;
}

/** The simulated public APIs' world: rate limits, outages, page tokens, balances, auth. */
export interface PublicApiWorld {
  rateLimitedUntilMs: Record<SimApi, number>;
  /**
   * The unit Retry-After counts the rest of a rate limit in: whole seconds (1000) as the real APIs
   * send it, or milliseconds (1) when the step asked for a wait that is not whole seconds, sent as
   * decimal seconds ("0.4"), so a test of the backoff need not wait out a whole second.
   */
  retryAfterUnitMs: Record<SimApi, number>;
  unavailableUntilMs: Record<SimApi, number>;
  tokens: Map<string, IssuedToken>;
  /** The next this-many page tokens presented are answered as expired, as if issued a day ago. */
  expireNextTokens: number;
  /** Balances in the smallest unit, by `chainId/address` (lowercase). */
  balances: Map<string, bigint>;
  delegatorsPerNode: number;
  /** When set, the Data API answers 401 without this key and 403 when it lacks privilege. */
  requiredKey?: { key: string; privileged: boolean };
  /** Every request received, for tests that check what was (not) sent and when. */
  requests: SimApiRequest[];
}

export const DEFAULT_BALANCE_WEI = 25_500_000_000_000_000_000n;
const MAX_LOGGED_REQUESTS = 10_000;

export function publicApiWorld(state: SimState): PublicApiWorld {
  state.extensions.publicApi ??= {
    rateLimitedUntilMs: { metrics: 0, data: 0 },
    retryAfterUnitMs: { metrics: 1000, data: 1000 },
    unavailableUntilMs: { metrics: 0, data: 0 },
    tokens: new Map(),
    expireNextTokens: 0,
    balances: new Map(),
    delegatorsPerNode: 23,
    requests: [],
  } satisfies PublicApiWorld;
  return state.extensions.publicApi as PublicApiWorld;
}

export function logRequest(world: PublicApiWorld, entry: SimApiRequest): void {
  world.requests.push(entry);
  if (world.requests.length > MAX_LOGGED_REQUESTS) world.requests.splice(0, world.requests.length - MAX_LOGGED_REQUESTS);
}

/**
 * Both APIs' error body: `{message, error, statusCode}`; the Metrics API sends `message` as an
 * array of strings, the Data API as a string.
 */
export function sendApiError(
  response: ServerResponse,
  api: SimApi,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = { message: api === 'metrics' ? [message] : message, error: REASONS[status] ?? 'Error', statusCode: status };
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

export function sendOk(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Answers 429 or 503 when a scenario step says so; returns the status it sent, or 0. */
export function scriptedFailure(world: PublicApiWorld, api: SimApi, response: ServerResponse, nowMs: number): number {
  if (world.rateLimitedUntilMs[api] > nowMs) {
    const unit = world.retryAfterUnitMs[api];
    const waitMs = Math.max(unit, Math.ceil((world.rateLimitedUntilMs[api] - nowMs) / unit) * unit);
    sendApiError(response, api, 429, 'Rate limit exceeded', { 'retry-after': String(waitMs / 1000) });
    return 429;
  }
  if (world.unavailableUntilMs[api] > nowMs) {
    sendApiError(response, api, 503, 'Service Unavailable');
    return 503;
  }
  return 0;
}

/**
 * One page of a newest-first listing. Tokens are opaque UUIDs bound to the listing they came
 * from; `nextPageToken` is left out on the last page, as the real APIs do.
 */
export function paginate<T>(
  world: PublicApiWorld,
  listing: string,
  items: readonly T[],
  pageSize: number,
  pageToken: string | null,
): { page: T[]; nextPageToken?: string } | { error: string } {
  let offset = 0;
  if (pageToken) {
    const issued = world.tokens.get(pageToken);
    if (!issued || issued.listing !== listing) return { error: 'Invalid pageToken' };
    if (issued.expired || world.expireNextTokens > 0) {
      world.expireNextTokens = Math.max(0, world.expireNextTokens - 1);
      return { error: 'pageToken expired: start again from the first page' };
    }
    offset = issued.offset;
  }
  const page = items.slice(offset, offset + pageSize);
  if (offset + pageSize >= items.length) return { page };
  const nextPageToken = randomUUID();
  world.tokens.set(nextPageToken, { listing, offset: offset + pageSize, expired: false });
  return { page, nextPageToken };
}

export function pageSizeOf(url: URL, fallback: number, max: number): number | undefined {
  const text = url.searchParams.get('pageSize');
  if (text === null) return fallback;
  const size = Number(text);
  return Number.isInteger(size) && size >= 1 && size <= max ? size : undefined;
}

export function hasHeader(request: IncomingMessage, name: string): boolean {
  return typeof request.headers[name] === 'string' && request.headers[name] !== '';
}
