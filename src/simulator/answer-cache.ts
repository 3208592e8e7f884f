import { readsClock, type MethodHandler } from './handlers/types.js';
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

/** A health report's answer and its verdict, which sets a GET's status. */
export interface HealthAnswer extends Answer {
  readonly healthy: boolean;
}

interface Kept<T extends Answer> {
  readonly answer: T;
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
  private readonly answers = new Map<string, Kept<Answer>>();
  private readonly healthReports = new Map<string, Kept<HealthAnswer>>();

  /** The JSON of what `handler` answers `params`; a handler that reads the clock is always called. */
  json(key: string, handler: MethodHandler, params: Record<string, unknown>, state: SimState, nowMs: number): Answer {
    if (readsClock(handler, params)) return serialize(handler(params, state, nowMs));
    return kept(this.answers, key, state, Number.POSITIVE_INFINITY, nowMs, () => serialize(handler(params, state, nowMs)));
  }

  /** A health report's JSON and verdict, as the node's last run of its checks gave them. */
  health(key: string, state: SimState, nowMs: number, report: () => { healthy: boolean }): HealthAnswer {
    return kept(this.healthReports, key, state, nowMs + HEALTH_CHECK_FREQUENCY_MS, nowMs, () => {
      const result = report();
      return { ...serialize(result), healthy: result.healthy };
    });
  }
}

/** The answer kept under `key` while its state and period hold, else a fresh one, the oldest let go past MAX_ANSWERS. */
function kept<T extends Answer>(
  answers: Map<string, Kept<T>>,
  key: string,
  state: SimState,
  untilMs: number,
  nowMs: number,
  answer: () => T,
): T {
  const known = answers.get(key);
  if (known?.revision === state.revision && nowMs < known.untilMs) return known.answer;
  const fresh = { answer: answer(), revision: state.revision, untilMs };
  answers.delete(key);
  answers.set(key, fresh);
  if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value!);
  return fresh.answer;
}

/** JSON of a result; `undefined` answers as null, as encoding/json marshals a nil result. */
function serialize(result: unknown): Answer {
  const json = JSON.stringify(result) ?? 'null';
  return { json, bytes: Buffer.byteLength(json) };
}
