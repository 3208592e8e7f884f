import { FieldReader } from '../clients/parse.js';
import { callUpMetrics } from '../metrics/catalogue/call-up.js';
import { nodeInfoMetrics, peersMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { sideCall, UNANSWERED } from './side-call.js';
import { slowFact } from './slow-fact.js';
import { validatorWeights, WEIGHTS_METHOD } from './validator-weights.js';
import { isNewer, parseVersion } from './version-compare.js';
import { weightedPercentile, type Weighted } from './weighted-percentile.js';

const OTHER_VERSION = 'other';

interface Peer {
  readonly nodeId: string;
  readonly version: string;
  /** Whole percent, as sent. */
  readonly observedPercent?: number;
  readonly benched: readonly string[];
}

/**
 * info.peers reduced to counts and statistics: never one series per peer. info.peers carries no
 * stake, so the primary network's weights come from platform.getValidatorsAt (at the current height, one call
 * every 10 minutes): the observed-uptime statistics and the newer-version share are taken over
 * validator peers only, weighted by stake, the way the network's reward vote weighs them.
 */
export function createPeersCollector(): Collector {
  return {
    name: 'peers',
    metrics: [...peersMetrics, ...callUpMetrics, ...nodeInfoMetrics.filter((desc) => desc.name === 'avaxmon_node_api_available')],
    async collect(ctx) {
      const read = new FieldReader(ctx.target.name, 'info.peers');
      const out = new SampleSet({ target: ctx.target.name });
      const [reply, weights, ownAnswer] = await Promise.all([
        ctx.node.call('/ext/info', 'info.peers', {}, ctx.signal),
        validatorWeights(ctx),
        // Without the node's own version only the newer-version share is left out.
        sideCall(ctx, out, { collector: 'peers', method: 'info.getNodeVersion' }, () =>
          slowFact(ctx, 'own-version', () => ownVersion(ctx)),
        ),
      ]);
      const own = ownAnswer === UNANSWERED ? undefined : ownAnswer;
      const result = read.object(reply, 'result');
      const peers = read.array(result.peers ?? [], 'peers').map((value, index) => parsePeer(read, value, index));
      out.add('avaxmon_node_api_available', { method: WEIGHTS_METHOD }, weights !== undefined);
      // numPeers is a json.Uint64 (a string) although the docs show a number.
      out.add('avaxmon_node_peers', {}, result.numPeers === undefined ? peers.length : read.uint64(result.numPeers, 'numPeers'));
      // The validators collector weighs these for the deciding view of this node's uptime.
      ctx.facts.peerUptimes = { atMs: ctx.nowMs, byNode: observedPercents(peers) };
      exportVersions(out, peers, own);
      exportBenched(out, peers);
      if (weights) exportValidatorPeers(out, peers, weights, own);
      return out.observation();
    },
  };
}

function parsePeer(read: FieldReader, value: unknown, index: number): Peer {
  const peer = read.object(value, `peers[${index}]`);
  return {
    nodeId: read.string(peer.nodeID, `peers[${index}].nodeID`),
    version: read.string(peer.version, `peers[${index}].version`),
    // observedUptime is a whole-percent string ("99").
    observedPercent: peer.observedUptime === undefined ? undefined : read.number(peer.observedUptime, `peers[${index}].observedUptime`),
    benched: read
      .array(peer.benched ?? [], `peers[${index}].benched`)
      .map((chain, at) => read.string(chain, `peers[${index}].benched[${at}]`)),
  };
}

function observedPercents(peers: readonly Peer[]): Map<string, number> {
  return new Map(peers.flatMap((peer) => (peer.observedPercent === undefined ? [] : [[peer.nodeId, peer.observedPercent] as const])));
}

function exportVersions(out: SampleSet, peers: readonly Peer[], own: number[] | undefined): void {
  const byVersion = new Map<string, number>();
  for (const peer of peers) byVersion.set(versionLabel(peer.version), (byVersion.get(versionLabel(peer.version)) ?? 0) + 1);
  for (const [version, count] of byVersion) out.add('avaxmon_node_peers_by_version', { version }, count);
  if (own && peers.length > 0)
    out.add('avaxmon_node_peers_newer_version_ratio', {}, peers.filter((peer) => isNewerThan(peer, own)).length / peers.length);
}

function exportBenched(out: SampleSet, peers: readonly Peer[]): void {
  const benchedByChain = new Map<string, number>();
  for (const chain of peers.flatMap((peer) => peer.benched)) benchedByChain.set(chain, (benchedByChain.get(chain) ?? 0) + 1);
  for (const [chain, count] of benchedByChain) out.add('avaxmon_node_benched_peers', { chain }, count);
}

/** Statistics over the peers that validate the primary network, each weighted by its stake. */
function exportValidatorPeers(
  out: SampleSet,
  peers: readonly Peer[],
  weights: ReadonlyMap<string, number>,
  own: number[] | undefined,
): void {
  const validators = peers.flatMap((peer) => {
    const weight = weights.get(peer.nodeId);
    return weight ? [{ peer, weight }] : [];
  });
  out.add('avaxmon_node_validator_peers', {}, validators.length);
  const stake = validators.reduce((sum, { weight }) => sum + weight, 0);
  if (stake === 0) return;
  if (own) {
    const newer = validators.filter(({ peer }) => isNewerThan(peer, own)).reduce((sum, { weight }) => sum + weight, 0);
    out.add('avaxmon_node_peers_newer_version_stake_ratio', {}, newer / stake);
  }
  const uptimes: Weighted[] = validators.flatMap(({ peer, weight }) =>
    peer.observedPercent === undefined ? [] : [{ value: peer.observedPercent / 100, weight }],
  );
  if (uptimes.length === 0) return;
  uptimes.sort((a, b) => a.value - b.value);
  out.add('avaxmon_node_observed_uptime_min_ratio', {}, uptimes[0].value);
  out.add('avaxmon_node_observed_uptime_p10_ratio', {}, weightedPercentile(uptimes, 0.1));
  out.add('avaxmon_node_observed_uptime_median_ratio', {}, weightedPercentile(uptimes, 0.5));
}

/**
 * Peers announce their version themselves, so the label is rebuilt from the parsed numbers and
 * anything unparseable shares one `other` bucket: a misbehaving peer cannot mint label values.
 */
function versionLabel(announced: string): string {
  const parsed = parseVersion(announced);
  return parsed ? `avalanchego/${parsed.join('.')}` : OTHER_VERSION;
}

function isNewerThan(peer: Peer, own: readonly number[]): boolean {
  const parsed = parseVersion(peer.version);
  return parsed !== undefined && isNewer(parsed, own);
}

async function ownVersion(ctx: CollectContext): Promise<number[] | undefined> {
  const read = new FieldReader(ctx.target.name, 'info.getNodeVersion');
  const reply = read.object(await ctx.node.call('/ext/info', 'info.getNodeVersion', {}, ctx.signal), 'result');
  return parseVersion(read.string(reply.version, 'version'));
}
