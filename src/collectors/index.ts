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
import { createValidatorsCollector } from './validators/collector.js';

/**
 * Every node collector by name (see names.ts). An explicit map, not import side effects, so this
 * file is the whole list; the Record type makes the compiler check it against the names.
 */
const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/**
 * Each default interval follows how fast the data changes, so the node watched is asked little:
 * health and chain heights every 15 s (a stall or an unhealthy node pages within a minute), peers,
 * uptime and validator sets every minute, node facts, upgrades and EVM fee configs (which change on
 * restarts and upgrades) every 5 minutes. With config.minimal.yaml this is about 30 requests a minute
 * (docs/performance.md); `global.interval` or a collector's `interval` overrides it.
 */
const factories: Record<CollectorName, CollectorFactory> = {
  health: { defaultEnabled: true, defaultIntervalMs: 15 * SECOND, create: createHealthCollector },
  node_info: { defaultEnabled: true, defaultIntervalMs: 5 * MINUTE, create: createNodeInfoCollector },
  peers: { defaultEnabled: true, defaultIntervalMs: MINUTE, create: createPeersCollector },
  uptime: { defaultEnabled: true, defaultIntervalMs: MINUTE, create: createUptimeCollector },
  upgrades: { defaultEnabled: true, defaultIntervalMs: 5 * MINUTE, create: createUpgradesCollector },
  validators: { defaultEnabled: true, defaultIntervalMs: MINUTE, create: createValidatorsCollector },
  l1_validators: { defaultEnabled: true, defaultIntervalMs: MINUTE, create: createL1ValidatorsCollector },
  fee_config: { defaultEnabled: true, defaultIntervalMs: 5 * MINUTE, create: createFeeConfigCollector },
  chain_progress: { defaultEnabled: true, defaultIntervalMs: 15 * SECOND, create: createChainProgressCollector },
};

/** Collector factories by name: the production one below, or a test's own passed to the Daemon. */
export type CollectorRegistry = ReadonlyMap<string, CollectorFactory>;

export const collectorRegistry: CollectorRegistry = new Map(collectorNames.map((name) => [name, factories[name]]));

export { collectorNames };
