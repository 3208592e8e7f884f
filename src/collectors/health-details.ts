import type { SampleSet } from './collector.js';

type Details = Record<string, unknown>;

/**
 * The numbers AvalancheGo (v1.15) puts in the `message` of its health checks, as series. The message
 * may be any JSON, and a check that has not run yet has none, so a field that is missing or not the
 * expected type is skipped, never a failed run. Shapes, from the node's source:
 * - chain checks (`P`, `X`, `C`, an L1's blockchain id): `{engine: {consensus: {processingBlocks,
 *   longestProcessingBlock: "1.2s", ...}, vm}, networking: {percentConnected: 0..1,
 *   disconnectedValidators: [...]}}`;
 * - `network`: `{connectedPeers, sendFailRate: 0..1, timeSinceLastMsgReceived: "85ms",
 *   timeSinceLastMsgSent, "primary network validator health": {ingressConnectionCount, ...}}`;
 * - `diskspace`: `{availableDiskBytes, availableDiskPercentage: whole percent}`;
 * - `router`: `{outstandingRequests, longestRunningRequest: "1.2s"}`;
 * - `futureupgrade`: `{localUpgradeTime, modeUpgradeTime, modeUpgradeWeightPercentage, ...}`: the
 *   upgrade time the most stake announces, which an outdated node does not know about.
 */
export function exportCheckDetails(out: SampleSet, check: string, message: unknown, chainLabel: (check: string) => string): void {
  const details = asDetails(message);
  if (!details) return;
  // Chain checks are named by alias or blockchain id, so they are known by their shape.
  if ('networking' in details || 'engine' in details) exportChainDetails(out, chainLabel(check), details);
  else if (check === 'network') exportNetworkDetails(out, details);
  else if (check === 'diskspace') exportDiskDetails(out, details);
  else if (check === 'router') exportRouterDetails(out, details);
  else if (check === 'futureupgrade') exportFutureUpgradeDetails(out, details);
}

function exportChainDetails(out: SampleSet, chain: string, details: Details): void {
  const labels = { chain };
  const networking = asDetails(details.networking);
  addNumber(out, 'avaxmon_health_chain_connected_stake_ratio', labels, networking?.percentConnected);
  if (Array.isArray(networking?.disconnectedValidators)) out.add('avaxmon_health_chain_disconnected_validators', labels, networking.disconnectedValidators.length);
  const consensus = asDetails(asDetails(details.engine)?.consensus);
  addNumber(out, 'avaxmon_health_chain_processing_blocks', labels, consensus?.processingBlocks);
  addNumber(out, 'avaxmon_health_chain_longest_processing_block_seconds', labels, goDurationSeconds(consensus?.longestProcessingBlock));
}

function exportNetworkDetails(out: SampleSet, details: Details): void {
  addNumber(out, 'avaxmon_health_network_send_fail_ratio', {}, details.sendFailRate);
  addNumber(out, 'avaxmon_health_network_since_last_received_seconds', {}, goDurationSeconds(details.timeSinceLastMsgReceived));
  addNumber(out, 'avaxmon_health_network_since_last_sent_seconds', {}, goDurationSeconds(details.timeSinceLastMsgSent));
  addNumber(out, 'avaxmon_health_network_ingress_connections', {}, asDetails(details['primary network validator health'])?.ingressConnectionCount);
}

function exportDiskDetails(out: SampleSet, details: Details): void {
  addNumber(out, 'avaxmon_health_disk_available_bytes', {}, details.availableDiskBytes);
  const percent = details.availableDiskPercentage;
  if (typeof percent === 'number') out.add('avaxmon_health_disk_available_ratio', {}, percent / 100);
}

function exportRouterDetails(out: SampleSet, details: Details): void {
  addNumber(out, 'avaxmon_health_router_outstanding_requests', {}, details.outstandingRequests);
  addNumber(out, 'avaxmon_health_router_longest_running_request_seconds', {}, goDurationSeconds(details.longestRunningRequest));
}

function exportFutureUpgradeDetails(out: SampleSet, details: Details): void {
  addNumber(out, 'avaxmon_health_local_upgrade_timestamp_seconds', {}, rfc3339Seconds(details.localUpgradeTime));
  addNumber(out, 'avaxmon_health_peers_upgrade_timestamp_seconds', {}, rfc3339Seconds(details.modeUpgradeTime));
  const percent = details.modeUpgradeWeightPercentage;
  if (typeof percent === 'number') out.add('avaxmon_health_peers_upgrade_stake_ratio', {}, percent / 100);
}

function addNumber(out: SampleSet, name: string, labels: Record<string, string>, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) out.add(name, labels, value);
}

function asDetails(value: unknown): Details | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Details) : undefined;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, 'μs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** Go's time.Duration.String(): "1h2m3.5s", "120ms", "0s"; undefined for anything else. */
export function goDurationSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^-?(\d+(\.\d+)?(ns|us|µs|μs|ms|s|m|h))+$/.test(value)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g)) seconds += Number(amount) * UNIT_SECONDS[unit];
  return value.startsWith('-') ? -seconds : seconds;
}

function rfc3339Seconds(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const millis = Date.parse(value.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isFinite(millis) ? millis / 1000 : undefined;
}
