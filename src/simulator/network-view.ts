import type { Action } from './action.js';
import { chainWorld } from './chain-world.js';
import { validatorWeights } from './peer-view.js';
import type { SimState } from './state.js';

const HELICON_REQUIREMENT = 0.9;
const BASE_REQUIREMENT = 0.8;

interface ViewGroup {
  /** Percent of the other validators' stake in this group, all connected. */
  readonly stake: number;
  /** The whole-percent observedUptime they report, as AvalancheGo truncates it. */
  readonly observed: number;
  /** Their release; the node's own by default. */
  readonly version?: string;
}

function groupsOf(argument: unknown): ViewGroup[] {
  const groups =
    (typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>).connected : undefined) ?? argument;
  if (!Array.isArray(groups)) throw new Error('network_view: expected { connected: [{ stake: 60, observed: 80 }, ...] }');
  return groups.map((group: Record<string, unknown>) => ({
    stake: Number(group.stake),
    observed: Math.trunc(Number(group.observed)),
    version: group.version === undefined ? undefined : String(group.version),
  }));
}

/**
 * `{ connected: [{ stake: 60, observed: 80, version: avalanchego/1.15.1 }, { stake: 40, observed: 100 }] }`: which share of the
 * other validators' stake the node is connected to and the uptime each share observes. The other
 * validators are taken in order until each share is filled; they become the node's peers (on its
 * own version), the rest of the stake is disconnected. info.uptime is then computed from them.
 */
export const networkViewActions: Record<string, Action> = {
  network_view(state, argument) {
    const weights = validatorWeights(state);
    const others = chainWorld(state).validators.filter((validator) => validator.nodeId !== state.nodeId);
    const total = others.reduce((sum, validator) => sum + weights.get(validator.nodeId)!, 0);
    const peers: SimState['peers'] = [];
    let next = 0;
    for (const group of groupsOf(argument)) {
      let filled = 0;
      while (next < others.length && filled < (group.stake / 100) * total) {
        const nodeId = others[next++].nodeId;
        filled += weights.get(nodeId)!;
        peers.push({ nodeId, version: group.version ?? state.version, observedUptime: group.observed, benched: [], trackedSubnets: [] });
      }
    }
    const connected = new Set(peers.map((peer) => peer.nodeId));
    for (const validator of others) validator.connected = connected.has(validator.nodeId);
    state.peers = peers;
    state.uptimeFromPeers = true;
  },
};

/**
 * info.uptime as AvalancheGo computes it (network/network.go NodeUptime): the node's own stake at
 * 100 %, each connected validator peer at its observedUptime, disconnected stake at 0 %; rewarding
 * stake is own stake plus peers whose view meets the requirement of the node's validation.
 */
export function uptimeFromPeers(state: SimState): { weightedAveragePercentage: string; rewardingStakePercentage: string } {
  const weights = validatorWeights(state);
  const own = weights.get(state.nodeId) ?? 0;
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const me = chainWorld(state).validators.find((validator) => validator.nodeId === state.nodeId);
  const helicon = Date.parse(String(state.upgrades.heliconTime)) / 1000;
  const requirement = me && me.startTime >= helicon ? HELICON_REQUIREMENT : BASE_REQUIREMENT;
  let weightedPercent = 100 * own;
  let rewarding = own;
  for (const peer of state.peers) {
    const weight = weights.get(peer.nodeId);
    if (!weight) continue;
    weightedPercent += peer.observedUptime * weight;
    if (peer.observedUptime / 100 >= requirement) rewarding += weight;
  }
  return {
    weightedAveragePercentage: (weightedPercent / total).toFixed(4),
    rewardingStakePercentage: ((100 * rewarding) / total).toFixed(4),
  };
}
