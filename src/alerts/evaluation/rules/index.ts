import type { AlertRule } from '../rule.js';
import { avalancheChainStalled } from './avalanche-chain-stalled.js';
import { avalancheHealthCheckFailing } from './avalanche-health-check-failing.js';
import { avalancheL1ValidatorBalanceLow } from './avalanche-l1-validator-balance-low.js';
import { avalancheL1ValidatorDisconnected } from './avalanche-l1-validator-disconnected.js';
import { avalancheL1ValidatorInactive } from './avalanche-l1-validator-inactive.js';
import { avalancheL1ValidatorUptimeLow } from './avalanche-l1-validator-uptime-low.js';
import { avalancheNodeNotBootstrapped } from './avalanche-node-not-bootstrapped.js';
import { avalancheNodeNotReady } from './avalanche-node-not-ready.js';
import { avalancheNodeUnhealthy } from './avalanche-node-unhealthy.js';
import { avalancheNodeVersionBehind } from './avalanche-node-version-behind.js';
import { avalanchePeersLow } from './avalanche-peers-low.js';
import { avalancheRewardAtRisk } from './avalanche-reward-at-risk.js';
import { avalancheRewardingStakeLow } from './avalanche-rewarding-stake-low.js';
import { avalancheStakeConnectedLow } from './avalanche-stake-connected-low.js';
import { avalancheStakeExpiring } from './avalanche-stake-expiring.js';
import { avalancheSubnetUnhealthy } from './avalanche-subnet-unhealthy.js';
import { avalancheUpgradeScheduled } from './avalanche-upgrade-scheduled.js';
import { avalancheUptimeDropping } from './avalanche-uptime-dropping.js';
import { avalancheUptimeLow } from './avalanche-uptime-low.js';
import { avalancheValidatorDisconnected } from './avalanche-validator-disconnected.js';
import { avalancheValidatorNotActive } from './avalanche-validator-not-active.js';
import { avaxmonCollectionLagging } from './avaxmon-collection-lagging.js';
import { avaxmonCollectorFailing } from './avaxmon-collector-failing.js';
import { avaxmonNotificationsFailing } from './avaxmon-notifications-failing.js';
import { avaxmonTargetDown } from './avaxmon-target-down.js';

/** Every built-in rule by name; the name is the config key under `alerts.rules` and `alertname`. */
export const ruleRegistry: ReadonlyMap<string, AlertRule> = new Map(
  [
    avaxmonTargetDown,
    avaxmonCollectorFailing,
    avaxmonCollectionLagging,
    avaxmonNotificationsFailing,
    avalancheNodeUnhealthy,
    avalancheHealthCheckFailing,
    avalancheSubnetUnhealthy,
    avalancheNodeNotBootstrapped,
    avalancheNodeNotReady,
    avalanchePeersLow,
    avalancheStakeConnectedLow,
    avalancheUptimeLow,
    avalancheUptimeDropping,
    avalancheRewardAtRisk,
    avalancheRewardingStakeLow,
    avalancheValidatorDisconnected,
    avalancheValidatorNotActive,
    avalancheStakeExpiring,
    avalancheL1ValidatorBalanceLow,
    avalancheL1ValidatorInactive,
    avalancheL1ValidatorDisconnected,
    avalancheL1ValidatorUptimeLow,
    avalancheChainStalled,
    avalancheUpgradeScheduled,
    avalancheNodeVersionBehind,
  ].map((rule) => [rule.name, rule]),
);

export const ruleNames: readonly string[] = [...ruleRegistry.keys()];

/** The rule whose firing alert silences the other alerts of the same target. */
export const TARGET_DOWN_RULE = 'AvaxmonTargetDown';
