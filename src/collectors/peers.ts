import { gorillaAnswer } from '../clients/jsonrpc.js';
import { FieldReader } from '../clients/parse.js';
import { callUpMetrics } from '../metrics/catalogue/call-up.js';
import { nodeInfoMetrics, peersMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { sideCall, UNANSWERED } from './side-call.js';
import { uptimeSeenByValidatorPeers } from './validators/deciding-view.js';
import { slowFact } from './slow-fact.js';
import { validatorWeights, WEIGHTS_METHOD } from './validator-weights.js';
import { isNewer, parseVersion } from './version-compare.js';
import { weightByValue, weightedPercentile, type Weighted } from './weighted-percentile.js';

const OTHER_VERSION = 'other';

interface Peer {
  readonly nodeId: string;
  readonly version: Version;
  /** Whole percent, as sent. */
  readonly observedPercent?: number;
  readonly benched: readonly string[];
}

/** An announced version, parsed; one object per distinct text, shared by every peer announcing it. */
interface Version {
  readonly parsed?: readonly number[];
  readonly label: string;
}

/** A validator among the peers, with its stake. */
interface ValidatorPeer {
  readonly peer: Peer;
  readonly weight: number;
}

/** The fields of info.peers read: a peer's other ten (addresses, times, ACPs, subnets) are never made into objects. */
const PEERS_ANSWER = gorillaAnswer({ numPeers: true, peers: [{ nodeID: true, version: true, observedUptime: true, benched: true }] });

const METRICS = [...peersMetrics, ...callUpMetrics, ...nodeInfoMetrics.filter((desc) => desc.name === 'avaxmon_node_api_available')];

/**
 * info.peers reduced to counts and statistics: never one series per peer. info.peers carries no
 * stake, so the primary network's weights come from platform.getValidatorsAt (at the current height, one call
 * every 10 minutes): the observed-uptime statistics and the newer-version share are taken over
 * validator peers only, weighted by stake, the way the network's reward vote weighs them.
 */
export function createPeersCollector(): Collector {
  return {
    name: 'peers',
    metrics: METRICS,
    async collect(ctx) {
      const read = new FieldReader(ctx.target.name, 'info.peers');
      const out = new SampleSet({ target: ctx.target.name });
      const [{ count, peers }, weights, ownAnswer] = await Promise.all([
        // Read for the four fields used and reduced to the peers as soon as it arrives: the answer
        // (600 KB from 1,800 peers) is never a tree of objects, and what is read does not wait for
        // the weights, which take two more calls every ten minutes, long enough for V8 to promote it.
        ctx.node.callProjected('/ext/info', 'info.peers', {}, PEERS_ANSWER, ctx.signal).then((reply) => readPeers(read, reply)),
        validatorWeights(ctx),
        // Without the node's own version only the newer-version share is left out.
        sideCall(ctx, out, { collector: 'peers', method: 'info.getNodeVersion' }, () =>
          slowFact(ctx, 'own-version', () => ownVersion(ctx)),
        ),
      ]);
      const own = ownAnswer === UNANSWERED ? undefined : ownAnswer;
      out.add('avaxmon_node_api_available', { method: WEIGHTS_METHOD }, weights !== undefined);
      out.add('avaxmon_node_peers', {}, count);
      exportVersions(out, peers, own);
      exportBenched(out, peers);
      const validators = weights ? validatorPeers(peers, weights) : undefined;
      // The validators collector reads the deciding view of this node's uptime from this run: the
      // view is kept, never the 1,800 peers it comes from (a fleet of 1,000 targets would hold them all).
      ctx.facts.decidingUptime = { atMs: ctx.nowMs, ratio: validators && uptimeSeenByValidatorPeers(validators, ctx.facts.nodeId) };
      if (validators) exportValidatorPeers(out, validators, own);
      return out.observation();
    },
  };
}

/** info.peers reduced to its count and peers, so the answer itself is held no longer than this. */
function readPeers(read: FieldReader, reply: unknown): { count: number; peers: Peer[] } {
  const result = read.object(reply, 'result');
  const versionOf = versionReader();
  const peers: Peer[] = [];
  read.each(result.peers ?? [], 'peers', (fields, peerRead) => peers.push(parsePeer(fields, peerRead, versionOf)));
  // numPeers is a json.Uint64 (a string) although the docs show a number.
  return { count: result.numPeers === undefined ? peers.length : read.uint64(result.numPeers, 'numPeers'), peers };
}

/** Field paths are relative to the entry: a path per field and peer, built eagerly, was a fifth of what a run allocated. */
function parsePeer(fields: Record<string, unknown>, read: FieldReader, versionOf: (text: string) => Version): Peer {
  const benched = fields.benched === undefined ? NONE_BENCHED : read.array(fields.benched, 'benched');
  for (let at = 0; at < benched.length; at++) read.string(benched[at], `benched[${at}]`);
  return {
    nodeId: read.string(fields.nodeID, 'nodeID'),
    version: versionOf(read.string(fields.version, 'version')),
    // observedUptime is a whole-percent string ("99").
    observedPercent: fields.observedUptime === undefined ? undefined : read.number(fields.observedUptime, 'observedUptime'),
    benched: benched as string[],
  };
}

const NONE_BENCHED: readonly string[] = [];

/**
 * Parses each distinct announced version once per run: 1,800 peers announce a handful, and parsing
 * each peer's (for its label, then for each comparison) was most of what the peers collector allocated.
 */
function versionReader(): (text: string) => Version {
  const known = new Map<string, Version>();
  return (text) => {
    let version = known.get(text);
    if (!version) known.set(text, (version = versionOfText(text)));
    return version;
  };
}

/**
 * Peers announce their version themselves, so the label is rebuilt from the parsed numbers and
 * anything unparseable shares one `other` bucket: a misbehaving peer cannot mint label values.
 */
function versionOfText(announced: string): Version {
  const parsed = parseVersion(announced);
  return { parsed, label: parsed ? `avalanchego/${parsed.join('.')}` : OTHER_VERSION };
}

function exportVersions(out: SampleSet, peers: readonly Peer[], own: number[] | undefined): void {
  const byVersion = new Map<string, number>();
  for (const { version } of peers) byVersion.set(version.label, (byVersion.get(version.label) ?? 0) + 1);
  for (const [version, count] of byVersion) out.add('avaxmon_node_peers_by_version', { version }, count);
  if (own && peers.length > 0) {
    let newer = 0;
    for (const peer of peers) if (isNewerThan(peer, own)) newer += 1;
    out.add('avaxmon_node_peers_newer_version_ratio', {}, newer / peers.length);
  }
}

function exportBenched(out: SampleSet, peers: readonly Peer[]): void {
  const benchedByChain = new Map<string, number>();
  for (const peer of peers) for (const chain of peer.benched) benchedByChain.set(chain, (benchedByChain.get(chain) ?? 0) + 1);
  for (const [chain, count] of benchedByChain) out.add('avaxmon_node_benched_peers', { chain }, count);
}

/** The peers that validate the primary network, each with its stake. */
function validatorPeers(peers: readonly Peer[], weights: ReadonlyMap<string, number>): ValidatorPeer[] {
  const validators: ValidatorPeer[] = [];
  for (const peer of peers) {
    const weight = weights.get(peer.nodeId);
    if (weight) validators.push({ peer, weight });
  }
  return validators;
}

/** Statistics over the peers that validate the primary network, each weighted by its stake. */
function exportValidatorPeers(out: SampleSet, validators: readonly ValidatorPeer[], own: number[] | undefined): void {
  out.add('avaxmon_node_validator_peers', {}, validators.length);
  const stake = validators.reduce((sum, { weight }) => sum + weight, 0);
  if (stake === 0) return;
  if (own) {
    const newer = validators.filter(({ peer }) => isNewerThan(peer, own)).reduce((sum, { weight }) => sum + weight, 0);
    out.add('avaxmon_node_peers_newer_version_stake_ratio', {}, newer / stake);
  }
  const observed: Weighted[] = [];
  for (const { peer, weight } of validators)
    if (peer.observedPercent !== undefined) observed.push({ value: peer.observedPercent / 100, weight });
  if (observed.length === 0) return;
  const uptimes = weightByValue(observed);
  out.add('avaxmon_node_observed_uptime_min_ratio', {}, uptimes[0].value);
  out.add('avaxmon_node_observed_uptime_p10_ratio', {}, weightedPercentile(uptimes, 0.1));
  out.add('avaxmon_node_observed_uptime_median_ratio', {}, weightedPercentile(uptimes, 0.5));
}

function isNewerThan(peer: Peer, own: readonly number[]): boolean {
  const { parsed } = peer.version;
  return parsed !== undefined && isNewer(parsed, own);
}

async function ownVersion(ctx: CollectContext): Promise<number[] | undefined> {
  const read = new FieldReader(ctx.target.name, 'info.getNodeVersion');
  const reply = read.object(await ctx.node.call('/ext/info', 'info.getNodeVersion', {}, ctx.signal), 'result');
  return parseVersion(read.string(reply.version, 'version'));
}
