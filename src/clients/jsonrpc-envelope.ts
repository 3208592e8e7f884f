import { UpstreamError } from '../errors.js';
import type { HttpResponse } from './http.js';
import { parseJsonBody, snippet, statusOutcome } from './response-body.js';

/** The `error` member of a JSON-RPC answer, as untrusted as the rest of the body. */
export interface JsonRpcErrorMember {
  readonly code?: unknown;
  readonly message?: unknown;
}

/**
 * The envelope both JSON-RPC dialects share (the node's gorilla one and the EVM chains'): a JSON
 * object carrying `error` or `result`, over HTTP 200. Only what an `error` member means differs
 * between them, so the dialect turns it into its UpstreamError; everything else fails the same way.
 */
export function jsonRpcResult(
  response: HttpResponse,
  upstream: string,
  method: string,
  rpcError: (error: JsonRpcErrorMember) => UpstreamError,
): unknown {
  const body = parseJsonBody(response, upstream, method) as { result?: unknown; error?: JsonRpcErrorMember | null } | null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new UpstreamError(upstream, method, 'bad_body', `JSON-RPC response is not an object: ${snippet(response.text)}`);
  }
  if (body.error !== undefined && body.error !== null) throw rpcError(body.error);
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
