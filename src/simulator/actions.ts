import { parseVersion } from '../collectors/version-compare.js';
import { parseDuration } from '../config/duration.js';
import { chainActions } from './chain-actions.js';
import { healthActions } from './health-actions.js';
import { networkViewActions } from './network-view.js';
import { publicApiActions } from './public-api-actions.js';
import { stakingActions } from './staking.js';
import type { Action } from './action.js';
import { generatePeers, type FaultKind, type SimState } from './state.js';

/** One scenario action: a name in the YAML mapped to a change of the simulated world. */
export type { Action } from './action.js';

const record = (argument: unknown) => (typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>) : {});

export const actions: Record<string, Action> = {
  /** `fail_check: { check: bootstrapped, error: "...", failing_for: 40m }`: failing since `failing_for` ago (default now). */
  fail_check(state, argument, now) {
    const {
      check,
      error,
      failing_for: failingFor,
    } = typeof argument === 'string' ? { check: argument, error: undefined, failing_for: undefined } : record(argument);
    const current = state.checks.get(String(check));
    if (!current) throw new Error(`fail_check: unknown check "${String(check)}"`);
    if (!current.failing) current.firstFailureMs = now - (typeof failingFor === 'string' ? (parseDuration(failingFor) ?? 0) : 0);
    current.failing = true;
    current.contiguousFailures += 1;
    current.error = error === undefined ? undefined : String(error);
  },
  recover_check(state, argument) {
    const current = state.checks.get(String(argument));
    if (!current) throw new Error(`recover_check: unknown check "${String(argument)}"`);
    Object.assign(current, { failing: false, contiguousFailures: 0, firstFailureMs: undefined, error: undefined });
  },
  set_peers(state, argument) {
    state.peers = generatePeers(Number(argument));
  },
  /** `{ peer: 0, version: "x/garbage" }`: one peer announces any version string, as a misbehaving peer may. */
  set_peer_version(state, argument) {
    const { peer = 0, version } = record(argument);
    const target = state.peers[Number(peer)];
    if (!target) throw new Error(`set_peer_version: no peer ${String(peer)}`);
    target.version = String(version);
  },
  /** The simulated node's own release, e.g. `avalanchego/1.15.1`. */
  set_version(state, argument) {
    state.version = String(argument);
  },
  /** `{ from_version: avalanchego/1.16.0, days: 5 }`: releases from that version on schedule an upgrade in that many days. */
  upgrade_ahead(state, argument, now) {
    const { from_version, days } = record(argument);
    const fromVersion = parseVersion(String(from_version));
    if (!fromVersion) throw new Error(`upgrade_ahead: bad from_version "${String(from_version)}"`);
    state.upcomingUpgrade = { fromVersion, timeSeconds: Math.round(now / 1000 + Number(days) * 86_400) };
  },
  /** Every peer sees the node at this uptime (observedUptime truncated), and info.uptime says so too. */
  set_uptime(state, argument) {
    state.uptimePercent = Number(argument);
    state.weightedUptimePercent = Number(argument);
    state.uptimeFromPeers = false;
    for (const peer of state.peers) peer.observedUptime = Math.trunc(Number(argument));
  },
  set_bootstrapped(state, argument) {
    const { chain, value } = record(argument);
    state.bootstrapped.set(String(chain), Boolean(value));
  },
  disable_method(state, argument) {
    state.disabledMethods.add(String(argument));
  },
  fault(state, argument, now) {
    const { match, kind, delay, message, for: duration } = record(argument);
    const forMs = typeof duration === 'string' ? parseDuration(duration) : undefined;
    state.faults.push({
      match: String(match ?? '*'),
      kind: String(kind) as FaultKind,
      delayMs: typeof delay === 'string' ? parseDuration(delay) : undefined,
      message: message === undefined ? undefined : String(message),
      untilMs: forMs === undefined ? undefined : now + forMs,
    });
  },
  clear_faults(state) {
    state.faults = [];
  },
  ...chainActions,
  ...healthActions,
  ...publicApiActions,
  ...stakingActions,
  ...networkViewActions,
};

/** Applies a step such as `{ fail_check: network, set_peers: 8 }`; unknown keys are errors. */
export function applyStep(state: SimState, step: Record<string, unknown>, nowMs: number): void {
  state.revision++;
  for (const [name, argument] of Object.entries(step)) {
    if (name === 'at') continue;
    const action = actions[name];
    if (!action) throw new Error(`unknown scenario action "${name}" (known: ${Object.keys(actions).join(', ')})`);
    action(state, argument, nowMs);
  }
}
