import type { Dispatcher } from 'undici';
import { UpstreamError } from '../errors.js';
import { followAbort, unfollowAbort, type AbortFollower } from '../schedule/abort-followers.js';
import { systemClock } from '../schedule/clock.js';
import { PatientTimer, timeoutError, type Expiring } from '../schedule/deadline.js';
import { BodyBytes } from './body-bytes.js';
import type { ResponseMemory } from './response-memory.js';
import { transportFailure } from './transport-failure.js';

/** What an exchange needs of its request. */
export interface ExchangeRequest {
  readonly timeoutMs: number;
  readonly upstream: string;
  readonly operation: string;
  readonly signal?: AbortSignal;
}

export interface BodyLimits {
  /** The per-response cap (global.max_response_bytes). */
  readonly cap: number;
  /** The budget all bodies being read at once draw on. */
  readonly memory: ResponseMemory;
}

const EMPTY = Buffer.alloc(0);

/**
 * One request on the wire, as undici's handler: it reads the answer's body into one buffer within
 * the per-response cap and the response memory budget (a declared Content-Length is checked before
 * a byte is read, an endless or undeclared body as it arrives), and times the request from when it
 * is sent with a PatientTimer. Failures reject `answered` with an UpstreamError naming the upstream.
 *
 * Why not undici's request(): per request it makes a Readable for the body, an async resource, an
 * async iterator and a promise per chunk to read it, and an abort listener on the request's signal,
 * with an AbortController of our own for the timeout: about a third of what the daemon allocated per
 * request beyond fetch and parse (docs/decisions.md#one-handler-per-request-not-undicis-request).
 * Here the request is this object, its timer, its promise, and its body's buffer.
 */
export class Exchange implements Dispatcher.DispatchHandler, Expiring, AbortFollower {
  /** Resolves with this exchange once the whole body is in; its bytes are valid until release(). */
  readonly answered: Promise<Exchange>;
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  private body?: BodyBytes;
  private size = 0;
  /** Bytes reserved in the memory budget, given back on release. */
  private taken = 0;
  private settled = false;
  private failure?: Error;
  private controller?: Dispatcher.DispatchController;
  private readonly timer: PatientTimer;
  private resolve!: (exchange: Exchange) => void;
  private reject!: (error: Error) => void;

  constructor(
    private readonly request: ExchangeRequest,
    private readonly limits: BodyLimits,
  ) {
    this.answered = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.timer = new PatientTimer(systemClock, request.timeoutMs, this);
    const { signal } = request;
    if (signal?.aborted) this.parentAborted(signal.reason);
    else if (signal) followAbort(signal, this);
  }

  /** The body's bytes, without a copy: valid until release(). */
  get bytes(): Buffer {
    return this.body?.view() ?? EMPTY;
  }

  text(): string {
    return this.body?.text() ?? '';
  }

  /** Hands the body's memory back: after the answer was read, or at once when the request failed. */
  release(): void {
    this.body?.release();
    this.body = undefined;
    this.limits.memory.give(this.taken);
    this.taken = 0;
  }

  /** Dispatching threw before the request was on its way (the dispatcher was closed). */
  notDispatched(error: unknown): void {
    this.fail(this.transportFailure(error));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // It timed out or was aborted while it waited for its connection.
    if (this.failure) controller.abort(this.failure);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // The parsed headers are all that is read. undici keeps the raw ones on the controller: views
    // that pin the socket read they arrived in for as long as the body takes, and promoted with it.
    // The array is the connection's parser's, made when its last answer ended and promoted while it
    // idled: emptied, it no longer keeps this answer's views alive through the scavenges until
    // V8's next full collection finds it dead.
    if (Array.isArray(controller.rawHeaders)) controller.rawHeaders.length = 0;
    controller.rawHeaders = null;
    // An informational answer (100 Continue) precedes the real one.
    if (statusCode < 200 || this.settled) return;
    this.status = statusCode;
    this.headers = headers;
    const { cap, memory } = this.limits;
    const declared = Number(headers['content-length'] ?? 0);
    if (declared > cap) this.refuse(`response body exceeds ${cap} bytes`);
    else if (declared > 0 && declared > memory.limitBytes - memory.usedBytes) this.overBudget();
    else this.body = new BodyBytes(declared, cap);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled || !this.body) return;
    this.size += chunk.length;
    if (this.size > this.limits.cap) this.refuse(`response body exceeds ${this.limits.cap} bytes`);
    else if (!this.limits.memory.take(chunk.length)) this.overBudget();
    else {
      this.taken += chunk.length;
      this.body.append(chunk);
    }
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settle();
    this.resolve(this);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.fail(this.transportFailure(error));
  }

  /** The request's own timeout: the node did not answer whole within it (of avaxmon's attention). */
  expire(stalledMs: number): void {
    const reason = timeoutError(this.request.timeoutMs, stalledMs);
    this.abort(this.transportFailure(reason, reason));
  }

  /** The caller's signal: the run's deadline or a stop. */
  parentAborted(reason: unknown): void {
    this.abort(this.transportFailure(reason, reason));
  }

  private transportFailure(error: unknown, aborted?: unknown): UpstreamError {
    return transportFailure(error, this.request.upstream, this.request.operation, aborted);
  }

  private refuse(detail: string): void {
    this.limits.memory.noteRefusal();
    this.abort(new UpstreamError(this.request.upstream, this.request.operation, 'bad_body', detail));
  }

  private overBudget(): void {
    const { memory } = this.limits;
    this.refuse(`response bodies being read exceed the memory budget of ${memory.limitBytes} bytes (global.max_response_memory_bytes)`);
  }

  /** Fails the request and stops it on the wire: the connection is closed, an endless body cut off. */
  private abort(error: Error): void {
    if (this.settled) return;
    this.fail(error);
    // undici answers with onResponseError, which finds the exchange settled.
    this.controller?.abort(error);
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.failure = error;
    this.settle();
    this.release();
    this.reject(error);
  }

  private settle(): void {
    this.settled = true;
    this.timer.cancel();
    if (this.request.signal) unfollowAbort(this.request.signal, this);
  }
}
