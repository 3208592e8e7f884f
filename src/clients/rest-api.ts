import { setTimeout as sleep } from 'node:timers/promises';
import { UpstreamError, type Outcome } from '../errors.js';
import type { HttpClient, HttpResponse } from './http.js';
import { retryAfterMs } from './retry-after.js';
import { parseJsonBody, snippet, statusOutcome } from './response-body.js';

export type PublicApiName = 'metrics_api' | 'data_api';

export interface RestApiOptions {
  readonly api: PublicApiName;
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Requests one collection run may send; a public API is never hammered by a big config. */
  readonly maxRequestsPerRun: number;
  /** Minimum time between two requests: the client-side rate limit. */
  readonly requestSpacingMs: number;
  /** A 429 whose Retry-After is at most this long is waited out in the run; longer ones fail it. */
  readonly maxRetryWaitMs: number;
  /** Words a 401 or 403 in terms the operator can act on (e.g. "Data API key missing"). */
  readonly describeAuthFailure?: (status: number) => string;
}

export interface RestRequest {
  /** The route template, e.g. `GET /v1/networks/{network}/delegators`: the `method` label. */
  readonly route: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly signal: AbortSignal;
}

export interface RequestCounter {
  recordRequest(target: string, method: string, outcome: Outcome): void;
}

/** A non-2xx answer of a public API, with the message of its `{message, error, statusCode}` body. */
export class RestApiError extends UpstreamError {
  constructor(
    api: string,
    route: string,
    outcome: Outcome,
    detail: string,
    readonly apiMessage: string,
    options: { status: number; retryAfterMs?: number },
  ) {
    super(api, route, outcome, detail, options);
    this.name = 'RestApiError';
  }
}

/** Used when a 429 carries no usable Retry-After. */
const DEFAULT_BACKOFF_MS = 60_000;

/**
 * GETs on one public REST API with the manners a shared public service needs: a request budget per
 * run, spacing between requests, and a backoff after 429 (or a 503 with Retry-After) that sends nothing before the Retry-After
 * time, not even from the next run. The client outlives runs so the backoff does too.
 */
export class RestApiClient {
  private blockedUntilMs = 0;
  private nextSlotMs = 0;
  private sentThisRun = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly counter: RequestCounter,
    readonly options: RestApiOptions,
  ) {}

  /** Resets the per-run request budget; runs of one collector never overlap. */
  beginRun(): void {
    this.sentThisRun = 0;
  }

  /** Keeps a predecessor's 429 backoff when a reload rebuilds the client for the same API. */
  inheritBackoff(previous: RestApiClient): void {
    this.blockedUntilMs = previous.blockedUntilMs;
    this.nextSlotMs = previous.nextSlotMs;
  }

  get requestsThisRun(): number {
    return this.sentThisRun;
  }

  async getJson(request: RestRequest): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      await this.awaitSlot(request);
      const response = await this.send(request);
      if (!asksToBackOff(response)) return this.parse(response, request);
      const waitMs = retryAfterMs(response.headers['retry-after'], Date.now()) ?? DEFAULT_BACKOFF_MS;
      this.blockedUntilMs = Math.max(this.blockedUntilMs, Date.now() + waitMs);
      if (attempt > 0 || waitMs > this.options.maxRetryWaitMs) throw this.error(response, request);
    }
  }

  /** Waits for the backoff and spacing to pass, or fails the run if that wait is too long. */
  private async awaitSlot(request: RestRequest): Promise<void> {
    const { api, maxRequestsPerRun, maxRetryWaitMs, requestSpacingMs } = this.options;
    if (this.sentThisRun >= maxRequestsPerRun) {
      throw new UpstreamError(api, request.route, 'unavailable', `request budget of ${maxRequestsPerRun} per run exhausted`);
    }
    const now = Date.now();
    if (this.blockedUntilMs - now > maxRetryWaitMs) {
      throw new UpstreamError(
        api,
        request.route,
        'unavailable',
        `rate limited (HTTP 429 or 503); sending nothing until ${new Date(this.blockedUntilMs).toISOString()} as Retry-After asked`,
      );
    }
    const startAt = Math.max(this.blockedUntilMs, this.nextSlotMs, now);
    if (startAt > now) await sleep(startAt - now, undefined, { signal: request.signal });
    this.nextSlotMs = Date.now() + requestSpacingMs;
    this.sentThisRun++;
  }

  private async send(request: RestRequest): Promise<HttpResponse> {
    try {
      const response = await this.http.request({
        url: this.url(request),
        headers: { accept: 'application/json', ...this.options.headers },
        timeoutMs: this.options.timeoutMs,
        upstream: this.options.api,
        operation: request.route,
        signal: request.signal,
      });
      this.counter.recordRequest(this.options.api, request.route, statusOutcome(response.status, 'success'));
      return response;
    } catch (error) {
      this.counter.recordRequest(this.options.api, request.route, error instanceof UpstreamError ? error.outcome : 'network_error');
      throw error;
    }
  }

  private parse(response: HttpResponse, request: RestRequest): unknown {
    if (response.status >= 200 && response.status < 300) return parseJsonBody(response, this.options.api, request.route);
    throw this.error(response, request);
  }

  private error(response: HttpResponse, request: RestRequest): RestApiError {
    const message = errorMessage(response.text);
    const status = response.status;
    const auth = (status === 401 || status === 403) && this.options.describeAuthFailure?.(status);
    const detail = auth ? `${auth} (HTTP ${status}: ${message})` : `HTTP ${status}: ${message}`;
    const retryAfter = asksToBackOff(response) ? Math.max(0, this.blockedUntilMs - Date.now()) : undefined;
    const outcome = statusOutcome(status, 'bad_body');
    return new RestApiError(this.options.api, request.route, outcome, detail, message, { status, retryAfterMs: retryAfter });
  }

  private url(request: RestRequest): string {
    const url = new URL(request.path, this.options.baseUrl.replace(/\/?$/, '/'));
    for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }
}

/** 429, and a 503 that says when to come back (RFC 9110 §15.6.4), ask for a backoff rather than fail. */
function asksToBackOff(response: HttpResponse): boolean {
  return response.status === 429 || (response.status === 503 && retryAfterMs(response.headers['retry-after'], Date.now()) !== undefined);
}

/** `{message, error, statusCode}`, where message is a string or (Metrics API) an array of strings. */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (Array.isArray(body.message)) return body.message.map(String).join('; ');
    if (typeof body.message === 'string') return body.message;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Gateways answer with HTML or plain text; show a snippet of it instead.
  }
  return snippet(text) || 'empty body';
}
