import { UpstreamError } from '../errors.js';
import type { HttpResponse } from './http.js';
import { bodySuffix, parseJsonBody, snippet, statusOutcome } from './response-body.js';

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
  const body = parseJsonBody(response, upstream, method) as { result?: unknown; error?: { code?: number; message?: string } };
  if (body === null || typeof body !== 'object') {
    throw new UpstreamError(upstream, method, 'bad_body', `JSON-RPC response is not an object: ${snippet(response.text)}`);
  }
  if (body.error) {
    const message = String(body.error.message ?? 'unknown error');
    const outcome = UNAVAILABLE.test(message) ? 'unavailable' : 'rpc_error';
    const prefix = DISABLED.test(message) ? 'API disabled on the node: ' : '';
    throw new UpstreamError(upstream, method, outcome, `${prefix}JSON-RPC error ${body.error.code}: ${message}`, {
      status: response.status,
      rpcCode: body.error.code,
    });
  }
  if (response.status !== 200) {
    throw new UpstreamError(
      upstream,
      method,
      statusOutcome(response.status, 'bad_body'),
      `HTTP ${response.status}: ${snippet(response.text)}`,
      {
        status: response.status,
      },
    );
  }
  if (!('result' in body)) throw new UpstreamError(upstream, method, 'bad_body', 'JSON-RPC response has neither result nor error');
  return body.result;
}
