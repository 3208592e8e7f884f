import { uptimeMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type Collector } from './collector.js';
import { nodeUptime } from './validators/network-view.js';

/**
 * info.uptime: how the validators see this node. Since AvalancheGo v1.12 the method takes no
 * arguments and reports the primary network only (a subnetID is ignored), so the series carries
 * subnet="primary"; an L1's uptime comes from the l1_validators collector instead. A node that is
 * not a validator reports avaxmon_node_validating 0 and no uptime, and the run succeeds.
 */
export function createUptimeCollector(): Collector {
  return {
    name: 'uptime',
    metrics: uptimeMetrics,
    async collect(ctx) {
      const uptime = await nodeUptime(ctx);
      const out = new SampleSet({ target: ctx.target.name, subnet: 'primary' });
      out.add('avaxmon_node_validating', {}, uptime !== undefined);
      if (uptime) {
        out.add('avaxmon_node_uptime_rewarding_stake_ratio', {}, uptime.rewardingStakeRatio);
        out.add('avaxmon_node_uptime_weighted_average_ratio', {}, uptime.weightedAverageRatio);
      }
      return out.observation();
    },
  };
}
