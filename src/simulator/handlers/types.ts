import type { SimState } from '../state.js';

/** A JSON-RPC method of the simulated node: params in, result out; throw RpcFailure for errors. */
export type MethodHandler = (params: Record<string, unknown>, state: SimState, nowMs: number) => unknown;

/**
 * A handler that reads the clock for some parameters only: `readsClock` says for which, and the
 * answer cache keeps the others as state-only answers.
 */
export type PartlyTimedHandler = MethodHandler & { readsClock(params: Record<string, unknown>): boolean };

/** Whether `handler`'s answer to `params` may change with the clock alone (declared with its third parameter, the clock). */
export function readsClock(handler: MethodHandler, params: Record<string, unknown>): boolean {
  if (handler.length < 3) return false;
  return (handler as Partial<PartlyTimedHandler>).readsClock?.(params) ?? true;
}

export class RpcFailure extends Error {
  constructor(
    message: string,
    readonly code = -32000,
  ) {
    super(message);
  }
}
