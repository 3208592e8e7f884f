import type { Dispatcher } from 'undici';
import type { HttpTransport } from '../config/http-config-schema.js';
import { ResponseMemory } from './response-memory.js';
import { createDispatcher } from './dispatcher.js';
import { ConnectionGate } from './connection-gate.js';
import { Exchange } from './exchange.js';
import { NotSentError } from './not-sent-error.js';
import { inTurn } from '../schedule/loop-turns.js';

/**
 * Requests on the wire to one origin at once, at most. A round's collectors (4 at once per origin,
 * global.max_concurrent_collections_per_origin) send up to about 9 calls each in parallel
 * (node_info: version, network id and name, node id, VMs, one isBootstrapped per chain): on 2
 * connections a node answering in 3 s kept the health collector queued past its 15 s interval.
 */
export const CONNECTIONS_PER_ORIGIN = 12;
/**
 * Past this many at once, a request first waits a moment for one to finish: a fast node's bursts
 * share 2 connections, as before (4 per origin kept 4,000 sockets and 20 MB at 1,000 nodes).
 */
const WARM_CONNECTIONS = 2;
/**
 * Long enough that a busy daemon's own lateness seldom looks like a slow node: with 50 ms, 1,000
 * nodes on one core opened 37-65 connections a second, each closed again 2 s later; with 250 ms,
 * 19-40 (docs/decisions.md#a-requests-timeout-starts-when-it-is-sent-a-slow-node-gets-more-connections).
 */
const SPILL_AFTER_MS = 250;
/**
 * A connection past the warm ones closes this long after its last answer: a slow node's round
 * reuses it, and a fleet does not keep every burst's high-water mark of sockets open
 * (docs/decisions.md#a-requests-timeout-starts-when-it-is-sent-a-slow-node-gets-more-connections).
 */
const SPARE_IDLE_MS = 2_000;

interface Origin {
  readonly dispatcher: Dispatcher;
  readonly gate: ConnectionGate;
}

export interface HttpRequest {
  readonly url: string;
  readonly method?: 'GET' | 'POST' | 'PUT';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  /** Names the upstream in errors: a target name or an API name, never a URL with secrets. */
  readonly upstream: string;
  /** Names the operation in errors and metrics: an RPC method or a route. */
  readonly operation: string;
  readonly signal?: AbortSignal;
  /** Told how long the request waited for a connection before it was sent (avaxmon's own lateness). */
  readonly onQueueWait?: (waitedMs: number) => void;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * A response whose body is read from its bytes while the reader runs: the bytes are handed back
 * once it returns, so nothing may keep them. `text()` decodes them, for what reads text.
 */
export interface BytesResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly bytes: Buffer;
  text(): string;
}

export interface HttpClientOptions {
  readonly maxResponseBytes: number;
  readonly connectTimeoutMs?: number;
  /** tls_config and proxy_url per origin (see transportsOf); the environment's proxy otherwise. */
  readonly transports?: ReadonlyMap<string, HttpTransport>;
  /** The budget bodies being read draw on, shared by a daemon's clients; a budget of its own by default. */
  readonly responseMemory?: ResponseMemory;
}

/**
 * One undici Pool per origin, with an explicit connect timeout (undici's default is 10 s), the
 * request's deadline over headers and body, and a cap on body size. Any HTTP status is returned;
 * transport failures throw an UpstreamError whose outcome says what kind of failure it was.
 */
export class HttpClient {
  private readonly pools = new Map<string, Origin>();

  private maxResponseBytes: number;
  private transports: ReadonlyMap<string, HttpTransport>;
  private readonly responseMemory: ResponseMemory;

  constructor(private readonly options: HttpClientOptions) {
    this.maxResponseBytes = options.maxResponseBytes;
    this.transports = options.transports ?? new Map();
    this.responseMemory = options.responseMemory ?? new ResponseMemory();
  }

  /** A reload may change an origin's tls_config or proxy_url: its pool starts over with them. */
  async setTransports(transports: ReadonlyMap<string, HttpTransport>): Promise<void> {
    const changed = [...this.pools.keys()].filter(
      (origin) => JSON.stringify(transports.get(origin)) !== JSON.stringify(this.transports.get(origin)),
    );
    this.transports = transports;
    const closing = changed.map((origin) => this.pools.get(origin)!.dispatcher.close());
    for (const origin of changed) this.pools.delete(origin);
    await Promise.all(closing);
  }

  /** A reload may change the cap; pools and their connections stay. */
  setMaxResponseBytes(bytes: number): void {
    this.maxResponseBytes = bytes;
  }

  /**
   * Sends once a connection is free: the deadline starts then, so it times the node's answer; the
   * wait before it is reported through onQueueWait and bounded by the caller's signal alone.
   */
  async request(request: HttpRequest): Promise<HttpResponse> {
    return this.requestBody(request, decoded);
  }

  /**
   * As request, with the body's bytes given to `read` (which must not keep them: they are handed
   * back once it returns) instead of decoded to a string: a reader of a few fields of a large
   * answer needs no copy of it as text.
   */
  async requestBytes<T>(request: HttpRequest, read: (response: BytesResponse) => T): Promise<T> {
    return this.requestBody(request, read);
  }

  private async requestBody<T>(request: HttpRequest, read: (response: BytesResponse) => T): Promise<T> {
    const url = new URL(request.url);
    const origin = this.pool(url.origin, request.timeoutMs);
    // Most requests find a slot free: no promise, no closure, no wait to report but none.
    const waitedMs = request.signal?.aborted || !origin.gate.tryAcquire() ? await this.waitForSlot(origin.gate, request) : 0;
    request.onQueueWait?.(waitedMs);
    let exchange: Exchange;
    try {
      exchange = await this.send(origin.dispatcher, url, request);
    } finally {
      origin.gate.release();
    }
    // The reader's own error passes as it is: it is never taken for a transport failure. Large answers
    // come in bursts: each is read in its turn of the event loop (see loop-turns.ts).
    try {
      return await inTurn(() => read(exchange));
    } finally {
      exchange.release();
    }
  }

  private waitForSlot(gate: ConnectionGate, request: HttpRequest): Promise<number> {
    return gate.acquire(request.signal).catch((reason: unknown) => {
      throw new NotSentError(request.upstream, request.operation, reason);
    });
  }

  private send(dispatcher: Dispatcher, url: URL, request: HttpRequest): Promise<Exchange> {
    const exchange = new Exchange(request, { cap: this.maxResponseBytes, memory: this.responseMemory });
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: request.method ?? 'GET',
          headers: url.username ? { ...authorizationFromUrl(url), ...request.headers } : request.headers,
          body: request.body,
          // The exchange's own timer alone times the request: it tells avaxmon's own stalls from a slow node.
          headersTimeout: 0,
          bodyTimeout: 0,
        },
        exchange,
      );
    } catch (error) {
      exchange.notDispatched(error);
    }
    return exchange.answered;
  }

  /** Closes the pools of origins a reload removed; their connections would otherwise stay open. */
  async retainOrigins(origins: ReadonlySet<string>): Promise<void> {
    const removed = [...this.pools].filter(([origin]) => !origins.has(origin));
    for (const [origin] of removed) this.pools.delete(origin);
    await Promise.all(removed.map(([, pool]) => pool.dispatcher.close()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.dispatcher.close()));
    this.pools.clear();
  }

  private pool(origin: string, timeoutMs: number): Origin {
    let pool = this.pools.get(origin);
    if (!pool) {
      const dispatcher = createDispatcher(origin, this.transports.get(origin), {
        connections: CONNECTIONS_PER_ORIGIN,
        connectTimeoutMs: this.options.connectTimeoutMs ?? timeoutMs,
        keepAliveTimeoutMs: 30_000,
        spare: { kept: WARM_CONNECTIONS, idleMs: SPARE_IDLE_MS },
      });
      pool = {
        dispatcher,
        gate: new ConnectionGate({ warm: WARM_CONNECTIONS, max: CONNECTIONS_PER_ORIGIN, spillAfterMs: SPILL_AFTER_MS }),
      };
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

function decoded(response: BytesResponse): HttpResponse {
  return { status: response.status, headers: response.headers, text: response.text() };
}

/** `http://user:pass@host` becomes basic auth, so credentials never travel in the request line. */
function authorizationFromUrl(url: URL): Record<string, string> {
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}
