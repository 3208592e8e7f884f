import { UpstreamError } from '../errors.js';
import type { NodeClient } from './avalanchego.js';
import type { HttpResponse } from './http.js';
import { jsonRpcResult } from './jsonrpc-envelope.js';
import { bodySuffix, snippet } from './response-body.js';

/** geth's "method not found": the method is absent on this chain (coreth lacks eth_feeConfig) or disabled. */
const METHOD_NOT_FOUND = -32601;

/**
 * The Ethereum-style JSON-RPC of /ext/bc/<id>/rpc (coreth, subnet-evm). It differs from the node's
 * gorilla dialect: params are an array, a missing method is a real -32601 code with no `data`, and
 * the message says "the method X does not exist/is not available". Requests are counted under the
 * target through the NodeClient, whatever host the RPC URL names.
 */
export class EvmRpcClient {
  private nextId = 1;

  constructor(private readonly node: NodeClient) {}

  /** The RPC URL of a chain on the target node: `<target url>/ext/bc/<chain>/rpc`. */
  defaultUrl(chain: string): string {
    return this.node.url(`/ext/bc/${chain}/rpc`);
  }

  call<T = unknown>(url: string, method: string, params: readonly unknown[] = [], signal?: AbortSignal): Promise<T> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params });
    return this.node.recorded(
      method,
      async () => parseEvmResponse(await this.node.postJson(url, method, body, signal), this.node.target, method) as T,
    );
  }
}

export function parseEvmResponse(response: HttpResponse, upstream: string, method: string): unknown {
  // An unknown chain id or a disabled RPC has no route on the node.
  if (response.status === 404) {
    throw new UpstreamError(upstream, method, 'unavailable', `HTTP 404: no such chain RPC${bodySuffix(response.text)}`, { status: 404 });
  }
  return jsonRpcResult(response, upstream, method, (error) => {
    const code = typeof error.code === 'number' ? error.code : undefined;
    const outcome = code === METHOD_NOT_FOUND ? 'unavailable' : 'rpc_error';
    const message = `EVM JSON-RPC error ${code ?? '?'}: ${String(error.message ?? 'unknown error')}`;
    return new UpstreamError(upstream, method, outcome, message, { status: response.status, rpcCode: code });
  });
}

/** eth_blockNumber and friends answer hex quantities ("0x3b1d5a0"). */
export function hexQuantity(value: unknown, upstream: string, method: string): number {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) {
    throw new UpstreamError(
      upstream,
      method,
      'bad_body',
      `expected a hex quantity, got ${snippet(JSON.stringify(value) ?? String(value))}`,
    );
  }
  return Number.parseInt(value.slice(2), 16);
}
