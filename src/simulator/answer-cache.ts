import type { MethodHandler } from './handlers/types.js';
import type { SimState } from './state.js';

/**
 * Serialized answers of the methods that read the state alone, kept until a step changes the state,
 * for a fleet of simulated nodes in a benchmark. AvalancheGo serves info.peers from memory; the
 * simulator rebuilt and stringified 1,800 peers on every call, so at 2,000 nodes on one core the
 * simulator, not the daemon measured, was the bottleneck. Off unless `simulate --cache-answers`:
 * tests change a node's state directly, without a step.
 */
export class AnswerCache {
  private readonly answers = new Map<string, { readonly json: string; readonly revision: number }>();

  /** The JSON of what `handler` answers `params`; a handler that reads the clock is always called. */
  json(key: string, handler: MethodHandler, params: Record<string, unknown>, state: SimState, nowMs: number): string {
    // A handler declared without its third parameter, the clock, answers from the state alone.
    if (handler.length >= 3) return serialize(handler(params, state, nowMs));
    const kept = this.answers.get(key);
    if (kept?.revision === state.revision) return kept.json;
    const json = serialize(handler(params, state, nowMs));
    this.answers.set(key, { json, revision: state.revision });
    return json;
  }
}

/** JSON of a result; `undefined` answers as null, as encoding/json marshals a nil result. */
function serialize(result: unknown): string {
  return JSON.stringify(result) ?? 'null';
}
