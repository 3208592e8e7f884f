import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyStep } from './actions.js';
import { AnswerCache, type Answer } from './answer-cache.js';
import { chainWorld, isBootstrappingPath } from './chain-world.js';
import { activeFault, applyFault } from './faults.js';
import { methodHandlers } from './handlers/index.js';
import { healthMethods, healthReport, readinessReport } from './handlers/health.js';
import { RpcFailure } from './handlers/types.js';
import { restRoutes } from './rest/index.js';
import { playScenario, type Scenario } from './scenario.js';
import { createState, type SimState } from './state.js';

export interface SimulatorOptions {
  readonly host?: string;
  readonly port?: number;
  readonly scenario?: Scenario;
  readonly peers?: number;
  readonly validators?: number;
  /** false: the node itself is not a primary validator (info.uptime answers "node is not a validator"). */
  readonly validator?: boolean;
  readonly onError?: (error: Error) => void;
  /**
   * The simulated node's wall clock (default Date.now): a test running the daemon under faketime
   * gives the node the same sped-up time, so both agree on when things happened.
   */
  readonly now?: () => number;
  /** Keep the serialized answers of methods that read the state alone (a benchmark fleet's; answer-cache.ts). */
  readonly cacheAnswers?: boolean;
}

export interface Simulator {
  readonly url: string;
  readonly state: SimState;
  /** Applies a scenario step now, e.g. `{ fail_check: 'network' }`. */
  apply(step: Record<string, unknown>): void;
  close(): Promise<void>;
}

const HEALTH_GET = new Map([
  ['/ext/health', 'health'],
  ['/ext/health/health', 'health'],
  ['/ext/health/readiness', 'readiness'],
  ['/ext/health/liveness', 'liveness'],
]);

/** A fake AvalancheGo node on loopback, with the real shapes, status codes and quirks. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const state = createState({ peers: options.peers, validators: options.validators });
  const now = options.now ?? Date.now;
  // Built now, not on the first request: health, peers and validators all read it, and a node's
  // world exists before anyone asks.
  chainWorld(state, now());
  if (options.validator === false) applyStep(state, { validator_leave: 'self' }, now());
  const onError = options.onError ?? ((error: Error) => process.stderr.write(`simulator: ${error.message}\n`));
  const answers = options.cacheAnswers ? new AnswerCache() : undefined;
  const server = createServer((request, response) => {
    handle({ state, answers }, request, response, now).catch((error: unknown) => {
      onError(error as Error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  // AvalancheGo's --http-idle-timeout defaults to 120 s: clients keep their connections between runs.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const stopScenario = options.scenario ? playScenario(options.scenario, state, onError) : () => {};
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    state,
    apply: (step) => applyStep(state, step, now()),
    close: () => closeServer(server, stopScenario),
  };
}

async function closeServer(server: Server, stopScenario: () => void): Promise<void> {
  stopScenario();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A simulated node: its state, and its answer cache when it keeps one. */
interface Node {
  readonly state: SimState;
  readonly answers?: AnswerCache;
}

async function handle(node: Node, request: IncomingMessage, response: ServerResponse, clock: () => number): Promise<void> {
  const { state } = node;
  const url = new URL(request.url ?? '/', 'http://simulator');
  const body = await readBody(request);
  const now = clock();
  if (url.pathname === '/_sim/apply' && request.method === 'POST') {
    applyStep(state, JSON.parse(body) as Record<string, unknown>, now);
    return void response.writeHead(204).end();
  }
  for (const route of restRoutes) if (await route(state, request, url, response, now)) return;
  if (request.method === 'GET' && HEALTH_GET.has(url.pathname)) return healthGet(node, url, request, response, now);
  if (!isRpcPath(url.pathname)) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
  if (request.method !== 'POST') return void response.writeHead(405, { 'content-type': 'text/plain' }).end('405 method not allowed\n');
  if (!/application\/json/.test(request.headers['content-type'] ?? '')) {
    return void response.writeHead(415, { 'content-type': 'text/plain' }).end('415 unsupported media type\n');
  }
  await jsonRpc(node, url.pathname, body, request, response, now);
}

async function healthGet(node: Node, url: URL, request: IncomingMessage, response: ServerResponse, now: number): Promise<void> {
  const { state } = node;
  const fault = activeFault(state, undefined, url.pathname, now);
  if (fault && (await applyFault(fault, request, response, null))) return;
  const kind = HEALTH_GET.get(url.pathname);
  const report = () =>
    kind === 'liveness'
      ? { checks: {}, healthy: true }
      : kind === 'readiness'
        ? readinessReport(state, now)
        : healthReport(state, now, url.searchParams.getAll('tag'));
  if (!node.answers) {
    const answer = report();
    return sendJson(response, answer.healthy ? 200 : 503, answer);
  }
  const answer = node.answers.health(`GET ${url.pathname}${url.search}`, state, now, report);
  sendAnswer(response, answer.healthy ? 200 : 503, answer);
}

async function jsonRpc(
  node: Node,
  path: string,
  body: string,
  request: IncomingMessage,
  response: ServerResponse,
  now: number,
): Promise<void> {
  const { state } = node;
  let call: { id?: unknown; method?: string; params?: unknown };
  try {
    call = JSON.parse(body) as typeof call;
  } catch {
    return sendJson(response, 200, { jsonrpc: '2.0', error: { code: -32700, message: 'parse error', data: null }, id: null });
  }
  // AvalancheGo answers a request without an id with an empty 200 body.
  if (call.id === undefined && !path.endsWith('/rpc')) return void response.writeHead(200).end();
  const method = String(call.method ?? '');
  if (state.disabledMethods.has(method)) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
  const fault = activeFault(state, method, path, now);
  if (fault && (await applyFault(fault, request, response, call.id))) return;
  if (isBootstrappingPath(state, path)) {
    await applyFault({ match: path, kind: 'plain_503' }, request, response, call.id);
    return;
  }
  const evm = path.endsWith('/rpc');
  const handler = methodHandlers[method];
  if (!handler) return sendJson(response, 200, unknownMethod(method, call.id, evm));
  try {
    const params = (Array.isArray(call.params) ? { args: call.params } : (call.params ?? {})) as Record<string, unknown>;
    if (!node.answers) return sendJson(response, 200, { jsonrpc: '2.0', result: handler({ ...params, path }, state, now), id: call.id });
    const key = `${path} ${method} ${JSON.stringify(call.params)}`;
    const answer =
      method in healthMethods
        ? node.answers.health(key, state, now, () => handler({ ...params, path }, state, now) as { healthy: boolean })
        : node.answers.json(key, handler, { ...params, path }, state, now);
    const id = call.id === undefined ? '' : `,"id":${JSON.stringify(call.id)}`;
    sendAnswer(response, 200, answer, RESULT_OPENING, `${id}}`);
  } catch (error) {
    if (!(error instanceof RpcFailure)) throw error;
    sendJson(response, 200, {
      jsonrpc: '2.0',
      error: { code: error.code, message: error.message, ...(evm ? {} : { data: null }) },
      id: call.id,
    });
  }
}

/** gorilla capitalises the Go method name; the EVM server answers like geth. */
function unknownMethod(method: string, id: unknown, evm: boolean): unknown {
  if (evm) return { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
  const [service, name = ''] = method.split('.');
  const goName = `${service}.${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return { jsonrpc: '2.0', error: { code: -32000, message: `rpc: can't find method "${goName}"`, data: null }, id };
}

function isRpcPath(path: string): boolean {
  return path === '/ext/info' || path === '/ext/health' || /^\/ext\/bc\/[^/]+(\/rpc|\/validators)?$/.test(path);
}

/**
 * Go's net/http holds this much of an answer before it sends the headers: a shorter answer goes out
 * with a Content-Length, a longer one chunked, as AvalancheGo sends info.peers and the validator
 * lists. A client then learns a large body's length only at its end.
 */
const GO_CHUNKING_BYTES = 2048;

/** Without a length, Node's server sends the body chunked. */
function jsonHeaders(length: number): Record<string, string | number> {
  return length <= GO_CHUNKING_BYTES
    ? { 'content-type': 'application/json', 'content-length': length }
    : { 'content-type': 'application/json' };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  sendAnswer(response, status, { json, bytes: Buffer.byteLength(json) });
}

const RESULT_OPENING = '{"jsonrpc":"2.0","result":';

/** A JSON answer kept between requests, within an opening and a closing. */
function sendAnswer(response: ServerResponse, status: number, answer: Answer, opening = '', closing = ''): void {
  const length = Buffer.byteLength(opening) + answer.bytes + Buffer.byteLength(closing);
  response.writeHead(status, jsonHeaders(length));
  // Node corks the socket for the rest of this turn at the first write: one write to it for all
  // three. An explicit cork, released after end(), lost a chunked body's later parts.
  response.write(opening);
  response.write(answer.json);
  response.end(closing);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
