import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault, SimState } from './state.js';

/** The first active fault matching this request's method or path, dropping expired ones. */
export function activeFault(state: SimState, method: string | undefined, path: string, nowMs: number): Fault | undefined {
  state.faults = state.faults.filter((fault) => fault.untilMs === undefined || fault.untilMs > nowMs);
  return state.faults.find((fault) => fault.match === '*' || fault.match === method || fault.match === path);
}

/**
 * Answers as a broken node or gateway would. Returns true when the response was written (or the
 * socket destroyed); false when the fault only delays and the real answer should follow.
 */
export async function applyFault(fault: Fault, request: IncomingMessage, response: ServerResponse, id: unknown): Promise<boolean> {
  switch (fault.kind) {
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 10_000));
      return false;
    case 'reset':
      request.socket.destroy();
      return true;
    case 'http_500':
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('internal server error\n');
      return true;
    case 'plain_503':
      response
        .writeHead(503, { 'content-type': 'text/plain; charset=utf-8' })
        .end('API call rejected because chain is not done bootstrapping\n');
      return true;
    case 'html':
      response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return true;
    case 'truncated':
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","result":{"numPe');
      return true;
    case 'unavailable':
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return true;
    case 'rpc_error':
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: fault.message ?? 'simulated failure', data: null }, id }));
      return true;
  }
}
