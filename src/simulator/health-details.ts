import { chainWorld } from './chain-world.js';
import { futureUpgradeDetails } from './peer-view.js';
import { PRIMARY_NETWORK_ID, type SimState } from './state.js';

/** The numbers the simulated node's health checks report; scenario actions change them. */
export interface SimHealthDetails {
  diskAvailablePercent: number;
  diskAvailableBytes: number;
  sendFailRate: number;
  /** Connected share (0..1) of each chain's validator stake, by check name; 1 when unset. */
  connectedStake: Map<string, number>;
  /** A check's `message` replaced by any JSON (health_message): details are `interface{}` by contract. */
  messages: Map<string, unknown>;
}

export function healthDetails(state: SimState): SimHealthDetails {
  state.extensions.health ??= {
    diskAvailablePercent: 42,
    diskAvailableBytes: 412_316_860_416,
    sendFailRate: 0.0125,
    connectedStake: new Map(),
    messages: new Map(),
  } satisfies SimHealthDetails;
  return state.extensions.health as SimHealthDetails;
}

/** The `message` of a check, in AvalancheGo v1.15's shape for that check. */
export function checkMessage(state: SimState, name: string, tags: readonly string[]): unknown {
  const details = healthDetails(state);
  if (details.messages.has(name)) return details.messages.get(name);
  switch (name) {
    case 'network':
      return {
        connectedPeers: state.peers.length,
        sendFailRate: details.sendFailRate,
        timeSinceLastMsgReceived: '85.316ms',
        timeSinceLastMsgSent: '120.5ms',
        'primary network validator health': { ingressConnectionCount: Math.ceil(state.peers.length / 2), primaryNetworkValidator: true },
      };
    case 'router':
      return { outstandingRequests: 17, longestRunningRequest: '1.204s' };
    case 'diskspace':
      return { availableDiskBytes: details.diskAvailableBytes, availableDiskPercentage: details.diskAvailablePercent };
    case 'bls':
      return 'node has the correct BLS key';
    case 'bootstrapped':
      return state.checks.get(name)?.failing ? bootstrappingSubnets(state) : [];
    case 'futureupgrade':
      return futureUpgradeDetails(state);
    case 'database':
      return null;
    default:
      return tags.includes('application') ? {} : chainCheckMessage(state, name, details);
  }
}

/** The ids of the subnets with a chain still bootstrapping, as the chain manager's `bootstrapped` check lists them. */
function bootstrappingSubnets(state: SimState): string[] {
  const world = chainWorld(state);
  const ids = [...state.bootstrapped]
    .filter(([, done]) => !done)
    .map(([chain]) => world.subnets.find((subnet) => subnet.blockchainId === chain)?.subnetId ?? PRIMARY_NETWORK_ID);
  return [...new Set(ids)];
}

/**
 * A chain check: the consensus engine's numbers and the connected share of the subnet's stake. While
 * the chain bootstraps its engine is the bootstrapper, which reports no consensus numbers
 * (snowman/bootstrap Bootstrapper.HealthCheck: `{consensus: {}, vm}`).
 */
function chainCheckMessage(state: SimState, name: string, details: SimHealthDetails): unknown {
  const connected = details.connectedStake.get(name) ?? 1;
  const validators = chainWorld(state).validators;
  const disconnected = validators.slice(1, 1 + Math.round((1 - connected) * (validators.length - 1))).map((validator) => validator.nodeId);
  const networking = { percentConnected: connected, disconnectedValidators: disconnected };
  if (state.bootstrapped.get(name) === false) return { engine: { consensus: {}, vm: null }, networking };
  return {
    engine: {
      consensus: {
        lastAcceptedHeight: 21_500_000,
        lastAcceptedID: '2Yp3CuxmbhYuWvTnwe2FBRwJTC8yWZeTq6BHHfSnqmLPsd8jWM',
        longestProcessingBlock: '312.5ms',
        processingBlocks: 2,
      },
      vm: null,
    },
    networking,
  };
}
