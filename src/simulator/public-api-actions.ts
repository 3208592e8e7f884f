import { parseDuration } from '../config/duration.js';
import type { Action } from './action.js';
import { balanceKey } from './rest/data-api.js';
import { DEFAULT_BALANCE_WEI, publicApiWorld, type SimApi } from './rest/public-api-world.js';

const record = (argument: unknown) => (typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>) : {});

/** `api: metrics | data | both` (default both). */
function apisOf(argument: unknown): SimApi[] {
  const api = String(record(argument).api ?? 'both');
  if (api === 'both') return ['metrics', 'data'];
  if (api === 'metrics' || api === 'data') return [api];
  throw new Error(`public API action: api must be metrics, data or both (got "${api}")`);
}

function durationOf(value: unknown, name: string): number {
  const ms = typeof value === 'number' ? value * 1000 : parseDuration(String(value));
  if (ms === undefined) throw new Error(`public API action: bad ${name} "${String(value)}"`);
  return ms;
}

/** Whole tokens (e.g. 0.25) to the smallest unit of an 18-decimal native token. */
function toWei(amount: unknown): bigint {
  const [whole, fraction = ''] = String(amount).split('.');
  if (!/^\d+$/.test(whole) || !/^\d*$/.test(fraction)) throw new Error(`public API action: bad amount "${String(amount)}"`);
  return BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0').slice(0, 18) || '0');
}

/** Scenario steps for the simulated Metrics API and Data API. */
export const publicApiActions: Record<string, Action> = {
  /**
   * `{ api: metrics, retry_after: 2s }`: 429 with Retry-After until that time has passed; in whole
   * seconds, or decimal seconds when the wait given is not whole seconds (`400ms`).
   */
  public_api_rate_limit(state, argument, now) {
    const waitMs = durationOf(record(argument).retry_after ?? '60s', 'retry_after');
    const world = publicApiWorld(state);
    for (const api of apisOf(argument)) {
      world.rateLimitedUntilMs[api] = now + waitMs;
      world.retryAfterUnitMs[api] = waitMs % 1000 === 0 ? 1000 : 1;
    }
  },
  /** `{ api: data, for: 30s }`: 503 with the error body for that long. */
  public_api_unavailable(state, argument, now) {
    const until = now + durationOf(record(argument).for ?? '60s', 'for');
    for (const api of apisOf(argument)) publicApiWorld(state).unavailableUntilMs[api] = until;
  },
  /** Every page token issued so far expires, as after 24 hours; `{ next: N }` expires the next N presented. */
  expire_page_tokens(state, argument) {
    const world = publicApiWorld(state);
    const next = record(argument).next;
    if (next !== undefined) world.expireNextTokens = Number(next);
    else for (const token of world.tokens.values()) token.expired = true;
  },
  /** `{ chain_id: "43114", address: 0x…, amount: 0.5 }`: spends that much of the native balance. */
  drain_balance(state, argument) {
    const { chain_id, address, amount } = record(argument);
    const world = publicApiWorld(state);
    const key = balanceKey(String(chain_id), String(address));
    const left = (world.balances.get(key) ?? DEFAULT_BALANCE_WEI) - toWei(amount ?? 1);
    world.balances.set(key, left > 0n ? left : 0n);
  },
  set_balance(state, argument) {
    const { chain_id, address, amount } = record(argument);
    publicApiWorld(state).balances.set(balanceKey(String(chain_id), String(address)), toWei(amount ?? 0));
  },
  /** `{ key: K, privileged: true }`: the Data API then answers 401 without K and 403 if not privileged. */
  require_data_api_key(state, argument) {
    const { key, privileged } = record(argument);
    publicApiWorld(state).requiredKey = { key: String(key), privileged: privileged !== false };
  },
  set_delegators_per_node(state, argument) {
    publicApiWorld(state).delegatorsPerNode = Number(argument);
  },
};
