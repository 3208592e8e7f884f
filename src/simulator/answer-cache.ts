import type { MethodHandler } from './handlers/types.js';
import type { SimState } from './state.js';

/**
 * AvalancheGo runs its health checks every --health-check-frequency (30 s by default) and answers
 * the health API from the last run's results, timestamps included.
 */
export const HEALTH_CHECK_FREQUENCY_MS = 30_000;

/**
 * The most answers a node keeps, the oldest let go first: some are asked once (getValidatorsAt at
 * each new height), and kept without a bound they grew the simulator by 277 KB a call.
 */
const MAX_ANSWERS = 64;

/** An answer's JSON and its length in bytes. */
export interface Answer {
  readonly json: string;
  /** Its length in bytes, taken once: byteLength of 600 KB strings on each call was 13 % of the simulator's time. */
  readonly bytes: number;
}

interface CachedAnswer extends Answer {
  readonly healthy: boolean;
  readonly revision: number;
  readonly untilMs: number;
}

/**
 * Serialized answers of the methods that read the state alone, kept until a step changes the state,
 * and health reports, kept for a health-check period; for a fleet of simulated nodes in a benchmark.
 * AvalancheGo serves info.peers from memory; the simulator rebuilt and stringified 1,800 peers on
 * every call, and the futureupgrade check walked them on every health call, so at 1,000 nodes on one
 * core the simulator, not the daemon measured, set the pace. Off unless `simulate --cache-answers`:
 * tests change a node's state directly, without a step.
 */
export class AnswerCache {
  private readonly answers = new Map<string, CachedAnswer>();

  /** The JSON of what `handler` answers `params`; a handler that reads the clock is always called. */
  json(key: string, handler: MethodHandler, params: Record<string, unknown>, state: SimState, nowMs: number): Answer {
    // A handler declared without its third parameter, the clock, answers from the state alone.
    if (handler.length >= 3) return serialize(handler(params, state, nowMs));
    return this.kept(key, state, Number.POSITIVE_INFINITY, nowMs, () => ({ result: handler(params, state, nowMs), healthy: true }));
  }

  /** A health report's JSON and verdict, as the node's last run of its checks gave them. */
  health(key: string, state: SimState, nowMs: number, report: () => { healthy: boolean }): CachedAnswer {
    return this.kept(key, state, nowMs + HEALTH_CHECK_FREQUENCY_MS, nowMs, () => {
      const result = report();
      return { result, healthy: result.healthy };
    });
  }

  private kept(
    key: string,
    state: SimState,
    untilMs: number,
    nowMs: number,
    answer: () => { result: unknown; healthy: boolean },
  ): CachedAnswer {
    const kept = this.answers.get(key);
    if (kept?.revision === state.revision && nowMs < kept.untilMs) return kept;
    const { result, healthy } = answer();
    const fresh = { ...serialize(result), healthy, revision: state.revision, untilMs };
    this.answers.delete(key);
    this.answers.set(key, fresh);
    if (this.answers.size > MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
    return fresh;
  }
}

/** JSON of a result; `undefined` answers as null, as encoding/json marshals a nil result. */
function serialize(result: unknown): Answer {
  const json = JSON.stringify(result) ?? 'null';
  return { json, bytes: Buffer.byteLength(json) };
}
