import { PRIMARY_NETWORK_ID } from '../state.js';
import { chainWorld } from '../chain-world.js';
import { announcedUpgradeTime, supportedAcps } from '../peer-view.js';
import { uptimeFromPeers } from '../network-view.js';
import { selfValidates } from '../staking.js';
import { RpcFailure, type MethodHandler } from './types.js';

/** info.* with the real encodings: uint64 as strings, percentages as 4-decimal strings. */
export const infoMethods: Record<string, MethodHandler> = {
  'info.getNodeVersion': (_, state) => ({
    version: state.version,
    databaseVersion: 'v1.4.5',
    rpcProtocolVersion: '42',
    gitCommit: '6e5acf909c7a16b991142d6b3979bac5699bdb68',
    vmVersions: { avm: 'v1.14.2', evm: 'v0.15.3', platform: 'v1.14.2', subnetevm: 'v0.8.0' },
  }),
  'info.getNodeID': (_, state) => ({
    nodeID: state.nodeId,
    nodePOP: { publicKey: `0x${'a1'.repeat(48)}`, proofOfPossession: `0x${'b2'.repeat(96)}` },
  }),
  'info.getNetworkID': (_, state) => ({ networkID: String(state.networkId) }),
  'info.getNetworkName': (_, state) => ({ networkName: state.networkName }),
  'info.getNodeIP': () => ({ ip: '203.0.113.7:9651' }),
  'info.isBootstrapped': (params, state) => {
    const chain = String(params.chain ?? '');
    if (!chain) throw new RpcFailure("argument 'chain' not given");
    // The L1 chains of the simulated chain world are bootstrapped unless a scenario says otherwise.
    const value = state.bootstrapped.get(chain) ?? (chainWorld(state).chains.has(chain) ? true : undefined);
    if (value === undefined) throw new RpcFailure(`there is no chain with alias/ID '${chain}'`);
    return { isBootstrapped: value };
  },
  'info.getVMs': () => ({
    vms: {
      jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['avm'],
      mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
      '11111111111111111111111111111111LpoYY': ['platform'],
      // subnet-evm, with two aliases from a --vm-aliases-file.
      srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy: ['subnetevm', 'subnet-evm'],
    },
    fxs: { spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx' },
  }),
  'info.peers': (params, state) => {
    const wanted = Array.isArray(params.nodeIDs) && params.nodeIDs.length > 0 ? new Set(params.nodeIDs.map(String)) : undefined;
    const peers = state.peers.filter((peer) => !wanted || wanted.has(peer.nodeId));
    return {
      numPeers: String(peers.length),
      peers: peers.map((peer, index) => ({
        ip: `198.51.100.${index % 250}:9651`,
        publicIP: `198.51.100.${index % 250}:9651`,
        nodeID: peer.nodeId,
        version: peer.version,
        upgradeTime: announcedUpgradeTime(state, peer.version),
        lastSent: '2026-11-22T00:00:00Z',
        lastReceived: '2026-11-22T00:00:00Z',
        observedUptime: String(peer.observedUptime),
        trackedSubnets: peer.trackedSubnets,
        supportedACPs: supportedAcps(state, peer.version),
        objectedACPs: [],
        benched: peer.benched,
      })),
    };
  },
  // AvalancheGo wraps network's errNotValidator: a node outside the primary set has no uptime to report.
  'info.uptime': (_, state) => {
    if (!selfValidates(state)) throw new RpcFailure("couldn't get node uptime: node is not a validator");
    if (state.uptimeFromPeers) return uptimeFromPeers(state);
    return {
      rewardingStakePercentage: state.uptimePercent.toFixed(4),
      weightedAveragePercentage: state.weightedUptimePercent.toFixed(4),
    };
  },
  'info.upgrades': (_, state) => state.upgrades,
  // Since Helicon the node lists who voted: the supporters and objectors among its peers.
  'info.acps': (_, state) => ({
    acps: Object.fromEntries(
      Object.entries(state.acps).map(([acp, vote], index) => [
        acp,
        {
          supporters: state.peers.filter((_, at) => at % 3 !== index % 3).map((peer) => peer.nodeId),
          supportWeight: vote.supportWeight,
          objectors: state.peers.filter((_, at) => at % 7 === 1).map((peer) => peer.nodeId),
          objectWeight: vote.objectWeight,
          abstainWeight: vote.abstainWeight,
        },
      ]),
    ),
  }),
  'info.getBlockchainID': (params) => {
    if (params.alias === 'P') return { blockchainID: PRIMARY_NETWORK_ID };
    throw new RpcFailure(`there is no chain with alias/ID '${String(params.alias)}'`);
  },
};
