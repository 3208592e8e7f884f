import { FieldReader } from '../clients/parse.js';
import { peersMetrics } from '../metrics/catalogue/node.js';
import { percentile } from '../stats.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { isNewer, parseVersion } from './version-compare.js';

const OTHER_VERSION = 'other';

/** info.peers reduced to counts and a few statistics: never one series per peer. */
export function createPeersCollector(): Collector {
  return {
    name: 'peers',
    metrics: peersMetrics,
    async collect(ctx) {
      const read = new FieldReader(ctx.target.name, 'info.peers');
      const result = read.object(await ctx.node.call('/ext/info', 'info.peers', {}, ctx.signal), 'result');
      const peers = read.array(result.peers ?? [], 'peers');
      const byVersion = new Map<string, number>();
      const benchedByChain = new Map<string, number>();
      const observedUptimes: number[] = [];
      peers.forEach((value, index) => {
        const peer = read.object(value, `peers[${index}]`);
        const version = versionLabel(read.string(peer.version, `peers[${index}].version`));
        byVersion.set(version, (byVersion.get(version) ?? 0) + 1);
        for (const chain of read.array(peer.benched ?? [], `peers[${index}].benched`)) {
          benchedByChain.set(String(chain), (benchedByChain.get(String(chain)) ?? 0) + 1);
        }
        // observedUptime is a whole-percent string ("99").
        if (peer.observedUptime !== undefined) observedUptimes.push(read.percentRatio(peer.observedUptime, `peers[${index}].observedUptime`));
      });
      const out = new SampleSet({ target: ctx.target.name });
      // numPeers is a string on the wire although the docs show a number; FieldReader takes both.
      out.add('avaxmon_node_peers', {}, result.numPeers === undefined ? peers.length : read.number(result.numPeers, 'numPeers'));
      for (const [version, count] of byVersion) out.add('avaxmon_node_peers_by_version', { version }, count);
      const newer = await newerVersionShare(ctx, byVersion, peers.length);
      if (newer !== undefined) out.add('avaxmon_node_peers_newer_version_ratio', {}, newer);
      for (const [chain, count] of benchedByChain) out.add('avaxmon_node_benched_peers', { chain }, count);
      if (observedUptimes.length > 0) {
        observedUptimes.sort((a, b) => a - b);
        out.add('avaxmon_node_observed_uptime_min_ratio', {}, observedUptimes[0]);
        out.add('avaxmon_node_observed_uptime_p10_ratio', {}, percentile(observedUptimes, 0.1));
        out.add('avaxmon_node_observed_uptime_median_ratio', {}, percentile(observedUptimes, 0.5));
      }
      return out.observation();
    },
  };
}

/**
 * Peers announce their version themselves, so the label is rebuilt from the parsed numbers and
 * anything unparseable shares one `other` bucket: a misbehaving peer cannot mint label values.
 */
function versionLabel(announced: string): string {
  const parsed = parseVersion(announced);
  return parsed ? `avalanchego/${parsed.join('.')}` : OTHER_VERSION;
}

/** The share of peers on a newer release than this node: the signal for "this node is behind". */
async function newerVersionShare(ctx: CollectContext, byVersion: ReadonlyMap<string, number>, total: number): Promise<number | undefined> {
  if (total === 0) return undefined;
  const read = new FieldReader(ctx.target.name, 'info.getNodeVersion');
  const reply = read.object(await ctx.node.call('/ext/info', 'info.getNodeVersion', {}, ctx.signal), 'result');
  const own = parseVersion(read.string(reply.version, 'version'));
  if (!own) return undefined;
  let newer = 0;
  for (const [version, count] of byVersion) {
    const parsed = parseVersion(version);
    if (parsed && isNewer(parsed, own)) newer += count;
  }
  return newer / total;
}
