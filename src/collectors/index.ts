import type { CollectorFactory } from './collector.js';
import { createHealthCollector } from './health.js';
import { createNodeInfoCollector } from './node-info.js';
import { createPeersCollector } from './peers.js';
import { createUptimeCollector } from './uptime.js';
import { createUpgradesCollector } from './upgrades.js';

/**
 * Every node collector by name: the name is the config key under `targets[].collectors` and the
 * `collector` label. An explicit map, not import side effects, so this file is the whole list.
 */
export const collectorRegistry: ReadonlyMap<string, CollectorFactory> = new Map<string, CollectorFactory>([
  ['health', { defaultEnabled: true, create: createHealthCollector }],
  ['node_info', { defaultEnabled: true, create: createNodeInfoCollector }],
  ['peers', { defaultEnabled: true, create: createPeersCollector }],
  ['uptime', { defaultEnabled: true, create: createUptimeCollector }],
  ['upgrades', { defaultEnabled: true, create: createUpgradesCollector }],
]);

export const collectorNames: readonly string[] = [...collectorRegistry.keys()];
