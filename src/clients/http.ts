import { errors as undiciErrors, type Dispatcher } from 'undici';
import type { HttpTransport } from '../config/http-config-schema.js';
import { UpstreamError, type Outcome } from '../errors.js';
import { BodyBytes } from './body-bytes.js';
import { ResponseMemory } from './response-memory.js';
import { createDispatcher } from './dispatcher.js';
import { deadline } from '../schedule/deadline.js';
import { ConnectionGate } from './connection-gate.js';
import { NotSentError } from './not-sent-error.js';

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
const SPILL_AFTER_MS = 50;
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
    return this.requestBody(request, ({ status, headers, text }) => ({ status, headers, text: text() }));
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
    const slot = await origin.gate.acquire(request.signal).catch((reason: unknown) => {
      throw new NotSentError(request.upstream, request.operation, reason);
    });
    request.onQueueWait?.(slot.waitedMs);
    try {
      return await this.send(origin.dispatcher, url, request, read);
    } finally {
      slot.release();
    }
  }

  private async send<T>(dispatcher: Dispatcher, url: URL, request: HttpRequest, read: (response: BytesResponse) => T): Promise<T> {
    const { signal, release } = deadline(request.timeoutMs, request.signal);
    try {
      const response = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: request.method ?? 'GET',
        headers: { ...authorizationFromUrl(url), ...request.headers },
        body: request.body,
        // The deadline alone times the request: it tells avaxmon's own stalls from a slow node.
        headersTimeout: 0,
        bodyTimeout: 0,
        signal,
      });
      const { statusCode: status, headers } = response;
      return await readCapped(
        response.body,
        { cap: this.maxResponseBytes, memory: this.responseMemory },
        request,
        Number(headers['content-length'] ?? 0),
        (bytes) => readerOwn(() => read({ status, headers, bytes: bytes.view(), text: () => bytes.text() })),
      );
    } catch (error) {
      if (error instanceof ReaderFailure) throw error.cause;
      if (error instanceof UpstreamError) throw error;
      const outcome = classifyTransportError(error, signal);
      throw new UpstreamError(request.upstream, request.operation, outcome, describe(error, outcome, signal), {
        cause: error,
      });
    } finally {
      release();
    }
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

/**
 * Reads a body within the per-response cap and the daemon's response memory budget, and gives its
 * bytes to `consume` before handing them back. A declared Content-Length is checked before reading
 * a byte; an endless or undeclared body as it arrives.
 */
type Body = AsyncIterable<Buffer> & { destroy(): void; on(event: 'error', listener: () => void): unknown };

async function readCapped<T>(
  body: Body,
  limits: { cap: number; memory: ResponseMemory },
  request: HttpRequest,
  declaredBytes: number,
  consume: (bytes: BodyBytes) => T,
): Promise<T> {
  const { cap, memory } = limits;
  let size = 0;
  let taken = 0;
  const fail = (detail: string): never => {
    // The abort this causes is the error below, said better; it must not surface as unhandled.
    body.on('error', () => undefined);
    body.destroy();
    memory.noteRefusal();
    throw new UpstreamError(request.upstream, request.operation, 'bad_body', detail);
  };
  const overBudget = () =>
    fail(`response bodies being read exceed the memory budget of ${memory.limitBytes} bytes (global.max_response_memory_bytes)`);
  if (declaredBytes > cap) fail(`response body exceeds ${cap} bytes`);
  if (declaredBytes > 0 && declaredBytes > memory.limitBytes - memory.usedBytes) overBudget();
  const bytes = new BodyBytes(declaredBytes, cap);
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > cap) fail(`response body exceeds ${cap} bytes`);
      if (!memory.take(chunk.length)) overBudget();
      taken += chunk.length;
      bytes.append(chunk);
    }
    return consume(bytes);
  } finally {
    bytes.release();
    memory.give(taken);
  }
}

/** What the reader of a body threw: its own error, never taken for a transport failure. */
class ReaderFailure {
  constructor(readonly cause: unknown) {}
}

function readerOwn<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ReaderFailure(error);
  }
}

/** `http://user:pass@host` becomes basic auth, so credentials never travel in the request line. */
function authorizationFromUrl(url: URL): Record<string, string> {
  if (!url.username) return {};
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function classifyTransportError(error: unknown, signal: AbortSignal): Outcome {
  const code = (error as { code?: string }).code;
  if (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError') return 'timeout';
  if (error instanceof undiciErrors.ConnectTimeoutError) return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || error instanceof undiciErrors.SocketError) return 'reset';
  return 'network_error';
}

/** OpenSSL's words for a TLS handshake answered with plain HTTP, and what they mean to an operator. */
const PLAIN_HTTP_ANSWER = /wrong version number|packet length too long/i;

function describe(error: unknown, outcome: Outcome, signal: AbortSignal): string {
  // Not aborted: undici's connect timeout, whose message names the address and the timeout.
  if (outcome === 'timeout') return signal.aborted ? (signal.reason as Error).message : String((error as Error).message);
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || PLAIN_HTTP_ANSWER.test(String((error as Error).message))) {
    return 'TLS handshake failed: the server answered plain HTTP to an https:// URL (AvalancheGo serves plain HTTP unless --http-tls-enabled); use http://';
  }
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  const message = (error as Error).message ?? String(error);
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
