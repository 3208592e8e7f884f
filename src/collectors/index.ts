import { createChainProgressCollector } from './chain-progress.js';
import type { CollectorFactory } from './collector.js';
import { collectorNames, type CollectorName } from './names.js';
import { createFeeConfigCollector } from './fee-config.js';
import { createHealthCollector } from './health.js';
import { createL1ValidatorsCollector } from './l1-validators.js';
import { createNodeInfoCollector } from './node-info.js';
import { createPeersCollector } from './peers.js';
import { createUptimeCollector } from './uptime.js';
import { createUpgradesCollector } from './upgrades.js';
import { createValidatorsCollector } from './validators.js';

/**
 * Every node collector by name (see names.ts). An explicit map, not import side effects, so this
 * file is the whole list; the Record type makes the compiler check it against the names.
 */
const factories: Record<CollectorName, CollectorFactory> = {
  health: { defaultEnabled: true, create: createHealthCollector },
  node_info: { defaultEnabled: true, create: createNodeInfoCollector },
  peers: { defaultEnabled: true, create: createPeersCollector },
  uptime: { defaultEnabled: true, create: createUptimeCollector },
  upgrades: { defaultEnabled: true, create: createUpgradesCollector },
  validators: { defaultEnabled: true, create: createValidatorsCollector },
  l1_validators: { defaultEnabled: true, create: createL1ValidatorsCollector },
  fee_config: { defaultEnabled: true, create: createFeeConfigCollector },
  chain_progress: { defaultEnabled: true, create: createChainProgressCollector },
};

/** Collector factories by name: the production one below, or a test's own passed to the Daemon. */
export type CollectorRegistry = ReadonlyMap<string, CollectorFactory>;

export const collectorRegistry: CollectorRegistry = new Map(collectorNames.map((name) => [name, factories[name]]));

export { collectorNames };
