import { FieldReader } from '../clients/parse.js';
import { uptimeMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type Collector } from './collector.js';

/**
 * info.uptime: how the validators see this node. Since AvalancheGo v1.12 the method takes no
 * arguments and reports the primary network only (a subnetID is ignored), so the series carries
 * subnet="primary"; an L1's uptime comes from the l1_validators collector instead.
 */
export function createUptimeCollector(): Collector {
  return {
    name: 'uptime',
    metrics: uptimeMetrics,
    async collect(ctx) {
      const read = new FieldReader(ctx.target.name, 'info.uptime');
      const result = read.object(await ctx.node.call('/ext/info', 'info.uptime', {}, ctx.signal), 'result');
      const out = new SampleSet({ target: ctx.target.name, subnet: 'primary' });
      out.add('avaxmon_node_uptime_rewarding_stake_ratio', {}, read.percentRatio(result.rewardingStakePercentage, 'rewardingStakePercentage'));
      out.add('avaxmon_node_uptime_weighted_average_ratio', {}, read.percentRatio(result.weightedAveragePercentage, 'weightedAveragePercentage'));
      return out.observation();
    },
  };
}
