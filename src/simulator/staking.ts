import type { Action } from './action.js';
import { chainWorld } from './chain-world.js';
import type { SimState } from './state.js';

const DAY = 86_400;
const record = (argument: unknown) => (typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>) : {});

/** The v1.15 fields of an auto-renewed validator's getCurrentValidators entry; none for a fixed-period one. */
export function autoRenewJson(state: SimState, nodeId: string, txId: string): Record<string, unknown> {
  const renewal = state.autoRenewals.get(nodeId);
  if (!renewal) return {};
  return {
    validatorAuthority: { locktime: '0', threshold: '1', addresses: [`P-avax1${txId.slice(0, 38).toLowerCase()}`] },
    nextPeriod: String(renewal.nextPeriodSeconds),
    autoCompoundRewardShares: String(renewal.autoCompoundRewardShares),
  };
}

/** Whether the simulated node is in the primary validator set (info.uptime refuses otherwise). */
export function selfValidates(state: SimState): boolean {
  return chainWorld(state).validators.some((validator) => validator.nodeId === state.nodeId);
}

function nodeOf(state: SimState, value: unknown): string {
  return value === undefined || value === 'self' ? state.nodeId : String(value);
}

function validatorOf(state: SimState, value: unknown) {
  const nodeId = nodeOf(state, value);
  const validator = chainWorld(state).validators.find((candidate) => candidate.nodeId === nodeId);
  if (!validator) throw new Error(`${nodeId} is not a current primary network validator`);
  return validator;
}

/** Scenario actions on staking periods and on how the network sees this node. */
export const stakingActions: Record<string, Action> = {
  /** `{ node_id, next_period_days: 14, auto_compound_percent: 50 }`; next_period_days 0 = leave after this cycle. */
  validator_auto_renew(state, argument) {
    const {
      node_id,
      next_period_days = 14,
      auto_compound_percent = 0,
    } = typeof argument === 'string' ? { node_id: argument } : record(argument);
    validatorOf(state, node_id);
    state.autoRenewals.set(nodeOf(state, node_id), {
      nextPeriodSeconds: Math.round(Number(next_period_days) * DAY),
      autoCompoundRewardShares: Math.round(Number(auto_compound_percent) * 10_000),
    });
  },
  /** The validator stakes for a fixed period again (no ACP-236 fields). */
  validator_fixed_period(state, argument) {
    state.autoRenewals.delete(validatorOf(state, argument).nodeId);
  },
  /** `{ node_id, start: 2026-10-01T00:00:00Z, days: 14 }` or `{ ago_days: 2, days: 365 }`: the current period (or cycle) of a validator. */
  validator_period(state, argument, now) {
    const { node_id, start, ago_days, days } = record(argument);
    const startTime = ago_days === undefined ? Date.parse(String(start)) / 1000 : Math.round(now / 1000 - Number(ago_days) * DAY);
    if (!Number.isFinite(startTime)) throw new Error(`validator_period: bad start "${String(start)}"`);
    Object.assign(validatorOf(state, node_id), { startTime, endTime: startTime + Math.round(Number(days) * DAY) });
  },
  /** `{ weighted: 85, rewarding: 60 }`: info.uptime, how the other validators see this node, in percent. */
  network_uptime(state, argument) {
    const { weighted, rewarding } = record(argument);
    if (weighted !== undefined) state.weightedUptimePercent = Number(weighted);
    if (rewarding !== undefined) state.uptimePercent = Number(rewarding);
    state.uptimeFromPeers = false;
  },
};
