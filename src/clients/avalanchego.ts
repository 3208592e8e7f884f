import { UpstreamError, type Outcome } from '../errors.js';
import type { BytesResponse, HttpClient, HttpRequest, HttpResponse } from './http.js';
import type { CompiledProjection } from './json-projection.js';
import { gorillaRequestBody, parseGorillaProjected, parseGorillaResponse } from './jsonrpc.js';
import { NotSentError } from './not-sent-error.js';
import { bodySuffix, parseJsonBody } from './response-body.js';

export interface RequestRecorder {
  recordRequest(target: string, method: string, outcome: Outcome): void;
  recordReachability(target: string, reachable: boolean, graceMs: number, error?: unknown): void;
  /** A request waited this long for a connection to the node before it was sent. */
  recordQueueWait(target: string, waitedSeconds: number): void;
}

export interface NodeClientOptions {
  readonly target: string;
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

const TRANSPORT_FAILURES: ReadonlySet<Outcome> = new Set(['refused', 'timeout', 'reset', 'network_error']);

/** Talks to one AvalancheGo node: gorilla JSON-RPC and the health GET endpoints. */
export class NodeClient {
  private nextId = 1;
  /** The node's origin, for the scheduler's per-origin cap. */
  readonly origin: string;
  /** Every POST's headers, made once: requests only read them. */
  private readonly postHeaders: Readonly<Record<string, string>>;

  constructor(
    private readonly http: HttpClient,
    private readonly recorder: RequestRecorder,
    readonly options: NodeClientOptions,
  ) {
    this.origin = new URL(options.baseUrl).origin;
    this.postHeaders = { 'content-type': 'application/json', ...options.headers };
  }

  get target(): string {
    return this.options.target;
  }

  /** Calls a gorilla JSON-RPC method on a path such as /ext/info; resolves to `result`. */
  async call<T = unknown>(path: string, method: string, params: unknown = {}, signal?: AbortSignal): Promise<T> {
    return this.recorded(method, async () => {
      const response = await this.post(path, method, gorillaRequestBody(method, params, this.nextId++), signal);
      return parseGorillaResponse(response, this.target, method, path) as T;
    });
  }

  /**
   * As call, reading from the answer's bytes only the parts of `result` that `answer` projects
   * (see gorillaAnswer): for large answers of which a few fields per entry are used.
   */
  async callProjected<T = unknown>(
    path: string,
    method: string,
    params: unknown,
    answer: CompiledProjection,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.recorded(method, () =>
      this.http.requestBytes(
        this.postRequest(this.url(path), method, gorillaRequestBody(method, params, this.nextId++), signal),
        (response: BytesResponse) => parseGorillaProjected(response, this.target, method, path, answer) as T,
      ),
    );
  }

  /** GET on a health path; 200 and 503 both carry the report, so both are answers. */
  async getHealth(path: string, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
    const operation = `GET ${path.split('?')[0]}`;
    return this.recorded(operation, async () => {
      const response = await this.http.request({
        url: this.url(path),
        headers: this.options.headers,
        timeoutMs: this.options.timeoutMs,
        upstream: this.target,
        operation,
        signal,
        onQueueWait: this.onQueueWait,
      });
      if (response.status === 404) {
        throw new UpstreamError(this.target, operation, 'http_4xx', `not an AvalancheGo API (HTTP 404 at ${path.split('?')[0]})`, {
          status: 404,
        });
      }
      if (response.status !== 200 && response.status !== 503) {
        throw new UpstreamError(
          this.target,
          operation,
          response.status >= 500 ? 'http_5xx' : 'http_4xx',
          `HTTP ${response.status}${bodySuffix(response.text)}`,
          {
            status: response.status,
          },
        );
      }
      return { status: response.status, body: parseJsonBody(response, this.target, operation) };
    });
  }

  /** A POST with a JSON body to any URL, counted under this target (used for EVM RPC). */
  async postJson(url: string, operation: string, body: string, signal?: AbortSignal): Promise<HttpResponse> {
    return this.http.request(this.postRequest(url, operation, body, signal));
  }

  private postRequest(url: string, operation: string, body: string, signal?: AbortSignal): HttpRequest {
    return {
      url,
      method: 'POST',
      headers: this.postHeaders,
      body,
      timeoutMs: this.options.timeoutMs,
      upstream: this.target,
      operation,
      signal,
      onQueueWait: this.onQueueWait,
    };
  }

  private readonly onQueueWait = (waitedMs: number): void => this.recorder.recordQueueWait(this.target, waitedMs / 1000);

  /** Runs one request and records its outcome and what it says about the node's reachability. */
  async recorded<T>(method: string, request: () => Promise<T>): Promise<T> {
    try {
      const result = await request();
      this.recorder.recordRequest(this.target, method, 'success');
      this.recorder.recordReachability(this.target, true, this.options.timeoutMs);
      return result;
    } catch (error) {
      // Never sent: the node was not asked, so neither its answers nor its reachability moved.
      if (error instanceof NotSentError) throw error;
      const outcome = error instanceof UpstreamError ? error.outcome : 'network_error';
      this.recorder.recordRequest(this.target, method, outcome);
      this.recorder.recordReachability(this.target, !TRANSPORT_FAILURES.has(outcome), this.options.timeoutMs, error);
      throw error;
    }
  }

  private post(path: string, method: string, body: string, signal?: AbortSignal): Promise<HttpResponse> {
    return this.postJson(this.url(path), method, body, signal);
  }

  /** Keeps any path prefix of the base URL, for nodes behind a reverse proxy. */
  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }
}
