import { UpstreamError } from '../errors.js';
import type { BytesResponse, HttpResponse } from './http.js';
import { CompiledProjection, projectJson, type Projection } from './json-projection.js';
import { jsonRpcResult } from './jsonrpc-envelope.js';
import { bodySuffix } from './response-body.js';

/**
 * AvalancheGo's gorilla JSON-RPC dialect (/ext/info, /ext/health, /ext/bc/P, /ext/bc/X,
 * /ext/bc/<id>/validators): errors arrive as HTTP 200 with {error:{code:-32000,message,data}}, and
 * almost every failure is code -32000, so the message tells a disabled method from a real error.
 */
export function gorillaRequestBody(method: string, params: unknown, id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? {} });
}

// The node answers a disabled or absent API with these; anything else is a real error.
const UNAVAILABLE = /not available|can't find (?:method|service)|method not found|is disabled|not enabled|unknown service/i;
// Of those, the node's own words for an API switched off in its config.
const DISABLED = /is disabled|not enabled/i;

export function parseGorillaResponse(response: HttpResponse, upstream: string, method: string, path: string): unknown {
  // Nothing routes this path: not an AvalancheGo API (a node with this API disabled by a flag such
  // as --api-info-enabled=false has no route either, and cannot be told apart from the answer).
  if (response.status === 404) {
    throw new UpstreamError(upstream, method, 'unavailable', `not an AvalancheGo API (HTTP 404 at ${path})${bodySuffix(response.text)}`, {
      status: 404,
    });
  }
  return jsonRpcResult(response, upstream, method, (error) => {
    const message = String(error.message ?? 'unknown error');
    const outcome = UNAVAILABLE.test(message) ? 'unavailable' : 'rpc_error';
    const prefix = DISABLED.test(message) ? 'API disabled on the node: ' : '';
    const code = typeof error.code === 'number' ? error.code : undefined;
    return new UpstreamError(upstream, method, outcome, `${prefix}JSON-RPC error ${String(error.code)}: ${message}`, {
      status: response.status,
      rpcCode: code,
    });
  });
}

/** A gorilla answer whose `result` is read as `result` projects it (see parseGorillaProjected). */
export function gorillaAnswer(result: Projection): CompiledProjection {
  return new CompiledProjection({ result, error: true });
}

/**
 * parseGorillaResponse for an answer read from its bytes, keeping only the parts of `result` that
 * `answer` (made by gorillaAnswer) projects. Anything but a plain answer (another status, an
 * `error` member, bytes that are not JSON) is read as text by parseGorillaResponse, so it fails
 * with the same words as every other call.
 */
export function parseGorillaProjected(
  response: BytesResponse,
  upstream: string,
  method: string,
  path: string,
  answer: CompiledProjection,
): unknown {
  if (response.status === 200) {
    const body = projectJson(response.bytes, answer) as { result?: unknown; error?: unknown } | null;
    if (
      body !== null &&
      typeof body === 'object' &&
      !Array.isArray(body) &&
      (body.error === undefined || body.error === null) &&
      'result' in body
    )
      return body.result;
  }
  return parseGorillaResponse({ status: response.status, headers: response.headers, text: response.text() }, upstream, method, path);
}
