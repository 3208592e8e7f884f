import { isNewer, parseVersion } from '../collectors/version-compare.js';
import { chainWorld } from './chain-world.js';
import type { SimState } from './state.js';

/** Granite and Helicon activations on Mainnet (Unix seconds). */
const GRANITE = 1_763_568_000;
const HELICON = 1_790_089_200;

/**
 * The upgrade time a node announces to its peers (and reports as localUpgradeTime): the next
 * upgrade its release knows, Helicon from v1.15 on, Granite before, or the upcoming upgrade of
 * `state.upcomingUpgrade` from the release that schedules it on.
 */
export function announcedUpgradeTime(state: SimState, version: string): number {
  const parsed = parseVersion(version);
  const upcoming = state.upcomingUpgrade;
  if (parsed && upcoming && !isNewer(upcoming.fromVersion, parsed)) return upcoming.timeSeconds;
  return parsed && (parsed[0] > 1 || parsed[1] >= 15) ? HELICON : GRANITE;
}

/** ACPs a peer announces support for: v1.15 nodes back the ACPs Helicon scheduled, as operators set them. */
export function supportedAcps(state: SimState, version: string): number[] {
  return announcedUpgradeTime(state, version) === GRANITE ? [] : [236, 267];
}

/** The primary network weight (nAVAX, delegations included) of each current validator. */
export function validatorWeights(state: SimState): Map<string, number> {
  return new Map(
    chainWorld(state).validators.map((validator) => [validator.nodeId, validator.weightNavax + validator.delegatorWeightNavax]),
  );
}

const HOUR_S = 3_600;
const DAY_S = 24 * HOUR_S;

/**
 * The futureupgrade check's error, as node/node.go words it: none unless at least half the stake
 * announces a later upgrade than this node's release knows, and none until it is 3 days away.
 */
export function futureUpgradeError(state: SimState, nowMs: number): string | undefined {
  const details = futureUpgradeDetails(state);
  const local = Date.parse(String(details.localUpgradeTime)) / 1000;
  const mode = Date.parse(String(details.modeUpgradeTime)) / 1000;
  if (local >= mode || Number(details.modeUpgradeWeightPercentage) < 50) return undefined;
  const left = mode - nowMs / 1000;
  if (left > 3 * DAY_S) return undefined;
  if (left > DAY_S) return 'unknown network upgrade detected';
  if (left > HOUR_S) return 'unknown network upgrade detected - update as soon as possible';
  return 'imminent network upgrade detected - update immediately';
}

/**
 * The futureupgrade health check: the upgrade time announced by the most stake among connected
 * validator peers, and its share of the total stake, as AvalancheGo computes it.
 */
export function futureUpgradeDetails(state: SimState): Record<string, unknown> {
  const weights = validatorWeights(state);
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const byTime = new Map<number, number>();
  // Peers share a handful of versions: parse each once.
  const timeOf = new Map<string, number>();
  let mode = 0;
  let modeWeight = 0;
  for (const peer of state.peers) {
    const weight = weights.get(peer.nodeId);
    if (weight === undefined) continue;
    if (!timeOf.has(peer.version)) timeOf.set(peer.version, announcedUpgradeTime(state, peer.version));
    const time = timeOf.get(peer.version)!;
    const sum = (byTime.get(time) ?? 0) + weight;
    byTime.set(time, sum);
    if (sum > modeWeight) [mode, modeWeight] = [time, sum];
  }
  return {
    localUpgradeTime: new Date(announcedUpgradeTime(state, state.version) * 1000).toISOString().replace('.000', ''),
    modeUpgradeTime: new Date(mode * 1000).toISOString().replace('.000', ''),
    modeUpgradeWeightPercentage: total === 0 ? 0 : (100 * modeWeight) / total,
    numUpgradeTimes: byTime.size,
  };
}
