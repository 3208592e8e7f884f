import { join } from 'node:path';
import { ALERTMANAGER, freePort, startRealSystem, type RealSystem } from './real-systems.js';
import { until } from './until.js';

/**
 * A two-member real Alertmanager cluster on loopback (`--cluster.listen-address`, `--cluster.peer`),
 * gossiping its silences and notification log fast enough for a test, as docs/scaling.md's high
 * availability runs it.
 */

/** How long the member in position 1 waits for position 0's notification to reach its log. */
export const PEER_TIMEOUT = '3s';

/** One Alertmanager of the cluster, loading `config` (alertmanager.yml), gossiping on `own` with its peer on `peer`. */
function clusterMember(config: string, own: number, peer: number, peerTimeout: string): Promise<RealSystem> {
  return startRealSystem(ALERTMANAGER, { 'alertmanager.yml': config }, (dir, listen) => [
    '--config.file=alertmanager.yml',
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=${listen}`,
    `--cluster.listen-address=127.0.0.1:${own}`,
    `--cluster.peer=127.0.0.1:${peer}`,
    `--cluster.peer-timeout=${peerTimeout}`,
    '--cluster.gossip-interval=100ms',
    '--cluster.pushpull-interval=1s',
  ]);
}

/** Alertmanager's count of members it sees: the cluster is formed once each sees two. */
export async function clusterMembers(url: string): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((response) => response.text());
  return Number(/^alertmanager_cluster_members (\S+)$/m.exec(text)?.[1] ?? 0);
}

/** A member, and which of `configOf`'s configs it loaded. */
export interface ClusterMember extends RealSystem {
  readonly index: number;
}

/**
 * Two members, one loading `configOf(0)` and the other `configOf(1)`, resolved once each sees the
 * other and its gossip has settled, in Alertmanager's notification order (members sorted by their cluster name): the first
 * notifies at once, the second only after `peerTimeout` and only what the first's log does not show.
 */
export async function startCluster(configOf: (index: number) => string, peerTimeout = PEER_TIMEOUT): Promise<ClusterMember[]> {
  const [portA, portB] = [await freePort(), await freePort()];
  const members = [await clusterMember(configOf(0), portA, portB, peerTimeout)];
  try {
    members.push(await clusterMember(configOf(1), portB, portA, peerTimeout));
    await until(async () => (await clusterMembers(members[0].url)) === 2 && (await clusterMembers(members[1].url)) === 2, 60_000);
    // A member holds every notification until its gossip settles (a few seconds after it starts).
    await until(
      async () => (await Promise.all(members.map((member) => clusterStatus(member.url)))).every(({ status }) => status === 'ready'),
      60_000,
    );
    const names = await Promise.all(members.map(async (member) => (await clusterStatus(member.url)).name));
    const indexed = members.map((member, index) => ({ ...member, index }));
    return names[0] < names[1] ? indexed : indexed.reverse();
  } catch (error) {
    for (const member of members) await member.stop();
    throw error;
  }
}

/** The member's cluster name and state (`settling`, then `ready`). */
async function clusterStatus(url: string): Promise<{ name: string; status: string }> {
  const status = (await fetch(`${url}/api/v2/status`).then((response) => response.json())) as { cluster: { name: string; status: string } };
  return status.cluster;
}
