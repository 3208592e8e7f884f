import type { ChainWorld } from './chain-world-types.js';

/** The mutable world of one simulated AvalancheGo node; scenario actions change it over time. */
export interface CheckState {
  failing: boolean;
  error?: string;
  contiguousFailures: number;
  firstFailureMs?: number;
  tags: string[];
}

export interface SimPeer {
  nodeId: string;
  version: string;
  observedUptime: number;
  benched: string[];
  trackedSubnets: string[];
}

export type FaultKind = 'slow' | 'http_500' | 'html' | 'truncated' | 'rpc_error' | 'plain_503' | 'reset' | 'unavailable';

export interface Fault {
  /** A JSON-RPC method (`info.peers`) or an HTTP path (`/ext/health`); `*` matches everything. */
  match: string;
  kind: FaultKind;
  delayMs?: number;
  /** rpc_error's message; "simulated failure" by default. */
  message?: string;
  untilMs?: number;
}

export interface SimState {
  nodeId: string;
  version: string;
  networkId: number;
  networkName: string;
  checks: Map<string, CheckState>;
  peers: SimPeer[];
  uptimePercent: number;
  weightedUptimePercent: number;
  /** info.uptime computed from the peers' observedUptime and stake (network_view), not the two numbers above. */
  uptimeFromPeers: boolean;
  /** ACP-236 auto-renewed primary validators by node id (see staking.ts); the others stake for a fixed period. */
  autoRenewals: Map<string, SimAutoRenew>;
  bootstrapped: Map<string, boolean>;
  /** Methods the node answers with 404, as when an API is disabled by flag. */
  disabledMethods: Set<string>;
  faults: Fault[];
  upgrades: Record<string, string | number>;
  acps: Record<string, { supportWeight: string; objectWeight: string; abstainWeight: string }>;
  /** A network upgrade that releases from `fromVersion` on schedule (see the upgrade_ahead action). */
  upcomingUpgrade?: { fromVersion: number[]; timeSeconds: number };
  /** Room for the later collectors' worlds (validators, chains, public APIs). */
  extensions: Record<string, unknown>;
  /** Size of the primary validator set the chain world is generated with. */
  validatorCount: number;
  /** Validators, L1s and chains; created on first use (see chainWorld()). */
  chainWorld?: ChainWorld;
  /** Counts applied steps: an answer cached under an older revision is stale (answer-cache.ts). */
  revision: number;
}

/**
 * ACP-236 auto-renewed staking of one primary validator. `nextPeriodSeconds` 0 means it leaves at
 * the end of its current cycle; shares are millionths of the cycle's reward restaked.
 */
export interface SimAutoRenew {
  nextPeriodSeconds: number;
  autoCompoundRewardShares: number;
}

export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
export const SIM_NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const APPLICATION_CHECKS = ['network', 'router', 'database', 'diskspace', 'bls', 'bootstrapped', 'futureupgrade'];

export function createState(options: { peers?: number; validators?: number } = {}): SimState {
  const checks = new Map<string, CheckState>();
  for (const name of APPLICATION_CHECKS) checks.set(name, { failing: false, contiguousFailures: 0, tags: ['application'] });
  for (const chain of ['P', 'X', 'C']) checks.set(chain, { failing: false, contiguousFailures: 0, tags: [PRIMARY_NETWORK_ID] });
  return {
    nodeId: SIM_NODE_ID,
    version: 'avalanchego/1.14.2',
    networkId: 1,
    networkName: 'mainnet',
    checks,
    peers: generatePeers(options.peers ?? 60),
    uptimePercent: 99.9812,
    weightedUptimePercent: 99.5,
    uptimeFromPeers: false,
    // Validator 2 of the chain world (its id is generatePeers' peer 1) renews every 14 days, restaking half.
    autoRenewals: new Map([[`NodeID-${fakeCb58(1, 33)}`, { nextPeriodSeconds: 14 * 86_400, autoCompoundRewardShares: 500_000 }]]),
    bootstrapped: new Map([
      ['P', true],
      ['X', true],
      ['C', true],
    ]),
    disabledMethods: new Set(),
    faults: [],
    upgrades: mainnetUpgrades(),
    acps: {
      '23': { supportWeight: '150000000000000000', objectWeight: '2000000000000000', abstainWeight: '9147778098286584' },
      '267': { supportWeight: '80000000000000000', objectWeight: '40000000000000000', abstainWeight: '41147778098286584' },
    },
    extensions: {},
    validatorCount: options.validators ?? 2000,
    revision: 0,
  };
}

const PEER_VERSIONS = ['avalanchego/1.14.2', 'avalanchego/1.14.2', 'avalanchego/1.14.2', 'avalanchego/1.14.1', 'avalanchego/1.13.5'];

export function generatePeers(count: number): SimPeer[] {
  return Array.from({ length: count }, (_, index) => ({
    nodeId: `NodeID-${fakeCb58(index, 33)}`,
    version: PEER_VERSIONS[index % PEER_VERSIONS.length],
    observedUptime: 100 - (index % 7),
    benched: index % 97 === 5 ? ['C'] : [],
    trackedSubnets: [],
  }));
}

/** Deterministic CB58-alphabet strings, good enough to look like ids. */
export function fakeCb58(seed: number, length: number): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let state = (seed + 1) * 2654435761;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

/** Mainnet's info.upgrades as AvalancheGo v1.15 answers it: every field, Helicon activated. */
function mainnetUpgrades(): Record<string, string | number> {
  return {
    apricotPhase1Time: '2021-03-31T14:00:00Z',
    apricotPhase2Time: '2021-05-10T11:00:00Z',
    apricotPhase3Time: '2021-08-24T14:00:00Z',
    apricotPhase4Time: '2021-09-22T21:00:00Z',
    apricotPhase4MinPChainHeight: 793005,
    apricotPhase5Time: '2021-12-02T18:00:00Z',
    apricotPhasePre6Time: '2022-09-05T01:30:00Z',
    apricotPhase6Time: '2022-09-06T20:00:00Z',
    apricotPhasePost6Time: '2022-09-07T03:00:00Z',
    banffTime: '2022-10-18T16:00:00Z',
    cortinaTime: '2023-04-25T15:00:00Z',
    cortinaXChainStopVertexID: 'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
    durangoTime: '2024-03-06T16:00:00Z',
    etnaTime: '2024-12-16T17:00:00Z',
    fortunaTime: '2025-04-08T15:00:00Z',
    graniteTime: '2025-11-19T16:00:00Z',
    graniteEpochDuration: 300000000000,
    heliconTime: '2026-09-22T15:00:00Z',
  };
}
