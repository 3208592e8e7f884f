import type { SimState } from '../state.js';

/** A JSON-RPC method of the simulated node: params in, result out; throw RpcFailure for errors. */
export type MethodHandler = (params: Record<string, unknown>, state: SimState, nowMs: number) => unknown;

export class RpcFailure extends Error {
  constructor(
    message: string,
    readonly code = -32000,
  ) {
    super(message);
  }
}
