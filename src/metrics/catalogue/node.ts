import { counter, gauge } from '../metric-desc.js';

/** Metrics of the node collectors: health, node_info, peers, uptime, upgrades. */
export const healthMetrics = [
  gauge('avaxmon_node_healthy', 'Whether GET /ext/health reports the node healthy.', ['target']),
  gauge('avaxmon_node_ready', 'Whether GET /ext/health/readiness reports the node ready.', ['target']),
  gauge('avaxmon_node_live', 'Whether GET /ext/health/liveness reports the node live.', ['target']),
  gauge('avaxmon_health_check_passing', 'Whether one health check of the node passes.', ['target', 'check']),
  gauge('avaxmon_health_check_contiguous_failures', 'Contiguous failures of one health check (0 when passing).', ['target', 'check']),
  counter(
    'avaxmon_health_details_skipped_total',
    'Health check details skipped because they had an unexpected type (details are any JSON by contract), by check and field path; health itself is read regardless.',
    ['target', 'check', 'field'],
  ),
  gauge(
    'avaxmon_health_check_first_failure_timestamp_seconds',
    'Unix time the current failure streak of a health check began; absent while passing.',
    ['target', 'check'],
  ),
  gauge('avaxmon_health_tag_healthy', 'Whether health.health filtered by this tag (a subnet id) is healthy.', ['target', 'tag']),
  gauge('avaxmon_health_tag_ready', 'Whether health.readiness filtered by this tag is ready.', ['target', 'tag']),
  gauge(
    'avaxmon_health_chain_connected_stake_ratio',
    "Share of the chain's validator stake the node is connected to (chain health check networking.percentConnected); chain is P, X, C, the L1's subnet name, or the blockchain id of an unconfigured chain.",
    ['target', 'chain'],
  ),
  gauge(
    'avaxmon_health_chain_disconnected_validators',
    "Validators of the chain's subnet the node is not connected to (chain health check networking.disconnectedValidators).",
    ['target', 'chain'],
  ),
  gauge(
    'avaxmon_health_chain_processing_blocks',
    'Blocks the chain has issued but not yet decided (chain health check engine.consensus.processingBlocks).',
    ['target', 'chain'],
  ),
  gauge(
    'avaxmon_health_chain_longest_processing_block_seconds',
    'How long the oldest undecided block of the chain has been processing (chain health check engine.consensus.longestProcessingBlock).',
    ['target', 'chain'],
  ),
  gauge(
    'avaxmon_health_network_send_fail_ratio',
    'Recent share of outbound messages the node failed to send (network health check sendFailRate).',
    ['target'],
  ),
  gauge(
    'avaxmon_health_network_since_last_received_seconds',
    'Time since the node last received a message from the network (network health check).',
    ['target'],
  ),
  gauge(
    'avaxmon_health_network_since_last_sent_seconds',
    'Time since the node last sent a message to the network (network health check).',
    ['target'],
  ),
  gauge(
    'avaxmon_health_network_ingress_connections',
    'Inbound peer connections (network health check; 0 on a primary network validator makes the check fail).',
    ['target'],
  ),
  gauge('avaxmon_health_disk_available_bytes', 'Disk space available to the node (diskspace health check availableDiskBytes).', ['target']),
  gauge(
    'avaxmon_health_disk_available_ratio',
    'Share of the disk available to the node (diskspace health check; the node reports unhealthy below its warning threshold, 10% by default, and shuts down below 3%).',
    ['target'],
  ),
  gauge('avaxmon_health_router_outstanding_requests', 'Requests to peers awaiting an answer (router health check outstandingRequests).', [
    'target',
  ]),
  gauge(
    'avaxmon_health_router_longest_running_request_seconds',
    'Age of the oldest request awaiting an answer (router health check longestRunningRequest).',
    ['target'],
  ),
  gauge(
    'avaxmon_health_local_upgrade_timestamp_seconds',
    "The next network upgrade time this node's release knows (futureupgrade health check localUpgradeTime).",
    ['target'],
  ),
  gauge(
    'avaxmon_health_peers_upgrade_timestamp_seconds',
    'The upgrade time announced by the most validator stake among connected peers (futureupgrade health check modeUpgradeTime).',
    ['target'],
  ),
  gauge(
    'avaxmon_health_peers_upgrade_stake_ratio',
    'Share of the primary network stake announcing that upgrade time (futureupgrade health check modeUpgradeWeightPercentage).',
    ['target'],
  ),
] as const;

export const nodeInfoMetrics = [
  gauge('avaxmon_node_info', 'Identity of the node; constant 1.', [
    'target',
    'node_id',
    'version',
    'database_version',
    'rpc_protocol_version',
    'network',
  ]),
  gauge('avaxmon_node_network_id', 'Network id of the node (1 mainnet, 5 Fuji).', ['target']),
  gauge('avaxmon_node_vm_info', 'A virtual machine installed on the node and its version; constant 1.', ['target', 'vm', 'version']),
  gauge(
    'avaxmon_node_installed_vm_info',
    'A virtual machine installed on the node (info.getVMs): its id and aliases joined by ","; constant 1.',
    ['target', 'vm_id', 'aliases'],
  ),
  gauge(
    'avaxmon_chain_bootstrapped',
    "Whether the node has finished bootstrapping a chain (info.isBootstrapped); check is the name of the chain's own health check (its alias P, X, C, or an L1 chain's blockchain id).",
    ['target', 'chain', 'check'],
  ),
  gauge('avaxmon_node_api_available', 'Whether a node-specific API method answers (0 when the node disables it).', ['target', 'method']),
] as const;

export const peersMetrics = [
  gauge('avaxmon_node_peers', 'Number of connected peers.', ['target']),
  gauge('avaxmon_node_peers_by_version', 'Connected peers by AvalancheGo version (avalanchego/X.Y.Z; "other" when unparseable).', [
    'target',
    'version',
  ]),
  gauge(
    'avaxmon_node_peers_newer_version_ratio',
    'Share of connected peers (unweighted, validators or not) running a newer AvalancheGo version than this node.',
    ['target'],
  ),
  gauge(
    'avaxmon_node_peers_newer_version_stake_ratio',
    'Share of the stake of connected primary network validators running a newer AvalancheGo version than this node.',
    ['target'],
  ),
  gauge('avaxmon_node_validator_peers', 'Connected peers that validate the primary network (stake from platform.getValidatorsAt).', [
    'target',
  ]),
  gauge('avaxmon_node_benched_peers', 'Peers benched on a chain by this node.', ['target', 'chain']),
  gauge('avaxmon_node_observed_uptime_min_ratio', 'Lowest uptime of this node as observed by the connected primary network validators.', [
    'target',
  ]),
  gauge(
    'avaxmon_node_observed_uptime_p10_ratio',
    "Stake-weighted 10th percentile of this node's uptime as observed by the connected primary network validators.",
    ['target'],
  ),
  gauge(
    'avaxmon_node_observed_uptime_median_ratio',
    "Stake-weighted median of this node's uptime as observed by the connected primary network validators.",
    ['target'],
  ),
] as const;

export const uptimeMetrics = [
  gauge('avaxmon_node_validating', 'Whether the node is a primary network validator (0: info.uptime answers "node is not a validator").', [
    'target',
    'subnet',
  ]),
  gauge(
    'avaxmon_node_uptime_rewarding_stake_ratio',
    'Share of stake that sees this node at or above its uptime requirement, i.e. would vote to reward it (info.uptime rewardingStakePercentage).',
    ['target', 'subnet'],
  ),
  gauge(
    'avaxmon_node_uptime_weighted_average_ratio',
    'Stake-weighted average uptime of this node as observed by validators (info.uptime).',
    ['target', 'subnet'],
  ),
] as const;

export const upgradesMetrics = [
  gauge(
    'avaxmon_network_upgrade_activation_timestamp_seconds',
    'Activation time of a network upgrade; a year-9999 value means not scheduled.',
    ['target', 'upgrade'],
  ),
  gauge('avaxmon_network_upgrade_scheduled', 'Whether a network upgrade has a real (not far-future) activation time.', [
    'target',
    'upgrade',
  ]),
  gauge('avaxmon_acp_support_weight_avax', 'Stake, in AVAX, supporting an ACP (info.acps).', ['target', 'acp']),
  gauge('avaxmon_acp_object_weight_avax', 'Stake, in AVAX, objecting to an ACP (info.acps).', ['target', 'acp']),
  gauge('avaxmon_acp_abstain_weight_avax', 'Stake, in AVAX, abstaining on an ACP (info.acps).', ['target', 'acp']),
  gauge(
    'avaxmon_acp_support_stake_ratio',
    "Share of the primary network's stake whose connected validators announce support for an ACP (info.acps).",
    ['target', 'acp'],
  ),
] as const;

export const nodeMetrics = [...healthMetrics, ...nodeInfoMetrics, ...peersMetrics, ...uptimeMetrics, ...upgradesMetrics];
