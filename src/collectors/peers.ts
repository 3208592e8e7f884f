import { ArrayColumns, columnsOf } from '../clients/json-projection.js';
import { gorillaAnswer } from '../clients/jsonrpc.js';
import { FieldReader } from '../clients/parse.js';
import { callUpMetrics } from '../metrics/catalogue/call-up.js';
import { nodeInfoMetrics, peersMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { sideCall, UNANSWERED } from './side-call.js';
import { uptimeSeenByStakePerPercent } from './validators/deciding-view.js';
import { PercentTally } from './percent-tally.js';
import { slowFact } from './slow-fact.js';
import { validatorWeights, WEIGHTS_METHOD } from './validator-weights.js';
import { isNewer, parseVersion } from './version-compare.js';
import { weightByValue, weightedPercentile } from './weighted-percentile.js';

const OTHER_VERSION = 'other';

/**
 * info.peers as read: a column per field used, not an object per peer, and the benched peers
 * already counted per chain. 1,800 peers a run, at every node of a fleet once a minute.
 */
interface Peers {
  /** numPeers, or the peers listed when a node leaves it out. */
  readonly count: number;
  readonly nodeIds: readonly string[];
  readonly versions: readonly Version[];
  /** Each distinct announced text once, with how many peers announced it. */
  readonly distinctVersions: readonly Version[];
  /** Each peer's observedUptime, in whole percent as sent; NaN for a peer that sends none. */
  readonly observedPercents: Float64Array;
  readonly benchedByChain: Map<string, number>;
}

/** An announced version, parsed; one object per distinct text and run, shared by every peer announcing it. */
interface Version {
  readonly parsed?: readonly number[];
  readonly label: string;
  /** The peers announcing this text in the run's answer. */
  peers: number;
}

/** The validators among the peers: their count, their stake, and how their stake sees this node. */
interface ValidatorPeers {
  readonly count: number;
  readonly stake: number;
  /** Stake of the validator peers announcing a newer version than the node's own; 0 without it. */
  readonly newerStake: number;
  /** Stake per whole percent of observed uptime: a hundred entries at most, whatever the peers. */
  readonly stakeByObservedPercent: Map<number, number>;
  /** The same, without the node's own view of itself: the deciding view (deciding-view.ts). */
  readonly othersStakeByObservedPercent: Map<number, number>;
}

/**
 * The fields of info.peers read, as columns: a peer's other ten (addresses, times, ACPs, subnets)
 * are never made into values, nor is any peer an object.
 */
const PEERS_ANSWER = gorillaAnswer({ numPeers: true, peers: columnsOf('nodeID', 'version', 'observedUptime', 'benched') });

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
      const [peers, weights, ownAnswer] = await Promise.all([
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
      out.add('avaxmon_node_peers', {}, peers.count);
      exportVersions(out, peers, own);
      for (const [chain, count] of peers.benchedByChain) out.add('avaxmon_node_benched_peers', { chain }, count);
      const validators = weights ? validatorPeers(peers, weights, own, ctx.facts.nodeId) : undefined;
      // The validators collector reads the deciding view of this node's uptime from this run: the
      // view is kept, never the 1,800 peers it comes from (a fleet of 1,000 targets would hold them all).
      ctx.facts.decidingUptime = {
        atMs: ctx.nowMs,
        ratio: validators && uptimeSeenByStakePerPercent(validators.othersStakeByObservedPercent),
      };
      if (validators) exportValidatorPeers(out, validators, own);
      return out.observation();
    },
  };
}

/** info.peers reduced to its columns, so the answer itself is held no longer than this. */
function readPeers(read: FieldReader, reply: unknown): Peers {
  const result = read.object(reply, 'result');
  const known = new Map<string, Version>();
  const listed = result.peers === undefined ? ArrayColumns.none : read.columns(result.peers, 'peers');
  const nodeIdColumn = listed.column('nodeID');
  const versionColumn = listed.column('version');
  const uptimeColumn = listed.column('observedUptime');
  const benchedColumn = listed.column('benched');
  // Sized once: grown by push, the columns were copied over and over for 1,800 peers.
  const versions = new Array<Version>(listed.length);
  const observedPercents = new Float64Array(listed.length);
  const benchedByChain = new Map<string, number>();
  read.eachRow(listed, 'peers', (index, peer) => {
    const benched = benchedColumn[index];
    if (benched !== undefined) countBenched(benchedByChain, peer, peer.array(benched, 'benched'));
    peer.string(nodeIdColumn[index], 'nodeID');
    versions[index] = versionOf(known, peer.string(versionColumn[index], 'version'));
    // observedUptime is a whole-percent string ("99").
    const uptime = uptimeColumn[index];
    observedPercents[index] = uptime === undefined ? Number.NaN : peer.number(uptime, 'observedUptime');
  });
  // Each checked a string above: the column is the peers' node ids as they are.
  const nodeIds = nodeIdColumn as readonly string[];
  // numPeers is a json.Uint64 (a string) although the docs show a number.
  const count = result.numPeers === undefined ? nodeIds.length : read.uint64(result.numPeers, 'numPeers');
  return { count, nodeIds, versions, distinctVersions: [...known.values()], observedPercents, benchedByChain };
}

function countBenched(benchedByChain: Map<string, number>, read: FieldReader, chains: readonly unknown[]): void {
  for (let at = 0; at < chains.length; at++) {
    const chain = read.string(chains[at], `benched[${at}]`);
    benchedByChain.set(chain, (benchedByChain.get(chain) ?? 0) + 1);
  }
}

/**
 * Parses each distinct announced version once per run, and counts its peers: 1,800 peers announce
 * a handful, and parsing each peer's (for its label, then for each comparison) was most of what
 * the peers collector allocated.
 */
function versionOf(known: Map<string, Version>, text: string): Version {
  let version = known.get(text);
  if (!version) known.set(text, (version = versionOfText(text)));
  version.peers += 1;
  return version;
}

/**
 * Peers announce their version themselves, so the label is rebuilt from the parsed numbers and
 * anything unparseable shares one `other` bucket: a misbehaving peer cannot mint label values.
 */
function versionOfText(announced: string): Version {
  const parsed = parseVersion(announced);
  return { parsed, label: parsed ? `avalanchego/${parsed.join('.')}` : OTHER_VERSION, peers: 0 };
}

function exportVersions(out: SampleSet, peers: Peers, own: number[] | undefined): void {
  // Texts that differ can share a label (every unparseable one is `other`).
  const byVersion = new Map<string, number>();
  for (const { label, peers: count } of peers.distinctVersions) byVersion.set(label, (byVersion.get(label) ?? 0) + count);
  for (const [version, count] of byVersion) out.add('avaxmon_node_peers_by_version', { version }, count);
  if (own && peers.versions.length > 0) {
    let newer = 0;
    for (const version of peers.distinctVersions) if (isNewerThan(version, own)) newer += version.peers;
    out.add('avaxmon_node_peers_newer_version_ratio', {}, newer / peers.versions.length);
  }
}

/** The peers that validate the primary network, summed by their stake in one pass. */
function validatorPeers(
  peers: Peers,
  weights: ReadonlyMap<string, number>,
  own: number[] | undefined,
  selfId: string | undefined,
): ValidatorPeers {
  let count = 0;
  let stake = 0;
  let newerStake = 0;
  const stakeByObservedPercent = new PercentTally();
  const othersStakeByObservedPercent = new PercentTally();
  for (let index = 0; index < peers.nodeIds.length; index++) {
    const nodeId = peers.nodeIds[index];
    const weight = weights.get(nodeId);
    if (!weight) continue;
    count += 1;
    stake += weight;
    if (own && isNewerThan(peers.versions[index], own)) newerStake += weight;
    const percent = peers.observedPercents[index];
    if (Number.isNaN(percent)) continue;
    stakeByObservedPercent.add(percent, weight);
    if (nodeId !== selfId) othersStakeByObservedPercent.add(percent, weight);
  }
  return {
    count,
    stake,
    newerStake,
    stakeByObservedPercent: stakeByObservedPercent.toMap(),
    othersStakeByObservedPercent: othersStakeByObservedPercent.toMap(),
  };
}

/** Statistics over the peers that validate the primary network, each weighted by its stake. */
function exportValidatorPeers(out: SampleSet, validators: ValidatorPeers, own: number[] | undefined): void {
  out.add('avaxmon_node_validator_peers', {}, validators.count);
  if (validators.stake === 0) return;
  if (own) out.add('avaxmon_node_peers_newer_version_stake_ratio', {}, validators.newerStake / validators.stake);
  if (validators.stakeByObservedPercent.size === 0) return;
  const uptimes = weightByValue([...validators.stakeByObservedPercent].map(([percent, weight]) => ({ value: percent / 100, weight })));
  out.add('avaxmon_node_observed_uptime_min_ratio', {}, uptimes[0].value);
  out.add('avaxmon_node_observed_uptime_p10_ratio', {}, weightedPercentile(uptimes, 0.1));
  out.add('avaxmon_node_observed_uptime_median_ratio', {}, weightedPercentile(uptimes, 0.5));
}

function isNewerThan({ parsed }: Version, own: readonly number[]): boolean {
  return parsed !== undefined && isNewer(parsed, own);
}

async function ownVersion(ctx: CollectContext): Promise<number[] | undefined> {
  const read = new FieldReader(ctx.target.name, 'info.getNodeVersion');
  const reply = read.object(await ctx.node.call('/ext/info', 'info.getNodeVersion', {}, ctx.signal), 'result');
  return parseVersion(read.string(reply.version, 'version'));
}
