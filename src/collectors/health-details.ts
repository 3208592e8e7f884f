import type { FieldReader } from '../clients/parse.js';
import type { SampleSet } from './collector.js';

type Details = Record<string, unknown>;

/**
 * The numbers AvalancheGo (v1.15) puts in the `message` of its health checks, as series. The message
 * may be any JSON (a string, a list, null before the check has run), so only an object is read, a
 * field it lacks is skipped, and `read` (a BestEffortReader scoped to the message) skips and counts a
 * field of another type (`checks.network.message.sendFailRate`) instead of failing the run. Shapes,
 * from the node's source:
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
export function exportCheckDetails(
  out: SampleSet,
  read: FieldReader,
  check: string,
  message: unknown,
  chainLabel: (check: string) => string,
): void {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return;
  const details = message as Details;
  // Chain checks are named by alias or blockchain id, so they are known by their shape.
  if ('networking' in details || 'engine' in details) exportChainDetails(out, read, chainLabel(check), details);
  else if (check === 'network') exportNetworkDetails(out, read, details);
  else if (check === 'diskspace') exportDiskDetails(out, read, details);
  else if (check === 'router') exportRouterDetails(out, read, details);
  else if (check === 'futureupgrade') exportFutureUpgradeDetails(out, read, details);
}

function exportChainDetails(out: SampleSet, read: FieldReader, chain: string, details: Details): void {
  const labels = { chain };
  const networking = read.optional(details.networking, 'networking', read.object);
  addPresent(
    out,
    'avaxmon_health_chain_connected_stake_ratio',
    labels,
    read.optional(networking?.percentConnected, 'networking.percentConnected', read.number),
  );
  const disconnected = read.optional(networking?.disconnectedValidators, 'networking.disconnectedValidators', read.array);
  addPresent(out, 'avaxmon_health_chain_disconnected_validators', labels, disconnected?.length);
  const engine = read.optional(details.engine, 'engine', read.object);
  const consensus = read.optional(engine?.consensus, 'engine.consensus', read.object);
  addPresent(
    out,
    'avaxmon_health_chain_processing_blocks',
    labels,
    read.optional(consensus?.processingBlocks, 'engine.consensus.processingBlocks', read.number),
  );
  addPresent(
    out,
    'avaxmon_health_chain_longest_processing_block_seconds',
    labels,
    duration(read, consensus?.longestProcessingBlock, 'engine.consensus.longestProcessingBlock'),
  );
}

function exportNetworkDetails(out: SampleSet, read: FieldReader, details: Details): void {
  addPresent(out, 'avaxmon_health_network_send_fail_ratio', {}, read.optional(details.sendFailRate, 'sendFailRate', read.number));
  addPresent(
    out,
    'avaxmon_health_network_since_last_received_seconds',
    {},
    duration(read, details.timeSinceLastMsgReceived, 'timeSinceLastMsgReceived'),
  );
  addPresent(
    out,
    'avaxmon_health_network_since_last_sent_seconds',
    {},
    duration(read, details.timeSinceLastMsgSent, 'timeSinceLastMsgSent'),
  );
  const validatorHealth = read.optional(details['primary network validator health'], 'primary network validator health', read.object);
  const ingress = read.optional(
    validatorHealth?.ingressConnectionCount,
    'primary network validator health.ingressConnectionCount',
    read.number,
  );
  addPresent(out, 'avaxmon_health_network_ingress_connections', {}, ingress);
}

function exportDiskDetails(out: SampleSet, read: FieldReader, details: Details): void {
  addPresent(out, 'avaxmon_health_disk_available_bytes', {}, read.optional(details.availableDiskBytes, 'availableDiskBytes', read.number));
  addPresent(
    out,
    'avaxmon_health_disk_available_ratio',
    {},
    read.optional(details.availableDiskPercentage, 'availableDiskPercentage', read.percentRatio),
  );
}

function exportRouterDetails(out: SampleSet, read: FieldReader, details: Details): void {
  addPresent(
    out,
    'avaxmon_health_router_outstanding_requests',
    {},
    read.optional(details.outstandingRequests, 'outstandingRequests', read.number),
  );
  addPresent(
    out,
    'avaxmon_health_router_longest_running_request_seconds',
    {},
    duration(read, details.longestRunningRequest, 'longestRunningRequest'),
  );
}

function exportFutureUpgradeDetails(out: SampleSet, read: FieldReader, details: Details): void {
  addPresent(
    out,
    'avaxmon_health_local_upgrade_timestamp_seconds',
    {},
    read.optional(details.localUpgradeTime, 'localUpgradeTime', read.timestampSeconds),
  );
  addPresent(
    out,
    'avaxmon_health_peers_upgrade_timestamp_seconds',
    {},
    read.optional(details.modeUpgradeTime, 'modeUpgradeTime', read.timestampSeconds),
  );
  const stake = read.optional(details.modeUpgradeWeightPercentage, 'modeUpgradeWeightPercentage', read.percentRatio);
  addPresent(out, 'avaxmon_health_peers_upgrade_stake_ratio', {}, stake);
}

function addPresent(out: SampleSet, name: string, labels: Record<string, string>, value: number | undefined): void {
  if (value !== undefined) out.add(name, labels, value);
}

/** A Go duration the message may lack; present, it must parse. */
function duration(read: FieldReader, value: unknown, path: string): number | undefined {
  return read.optional(value, path, (text, at) => goDurationSeconds(text) ?? read.fail(at, 'a Go duration such as "1.2s"', text));
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** Go's time.Duration.String(): "1h2m3.5s", "120ms", "0s"; undefined for anything else. */
export function goDurationSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^-?(\d+(\.\d+)?(ns|us|µs|μs|ms|s|m|h))+$/.test(value)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g)) seconds += Number(amount) * UNIT_SECONDS[unit];
  return value.startsWith('-') ? -seconds : seconds;
}
