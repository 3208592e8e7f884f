import { gorillaAnswer } from '../clients/jsonrpc.js';
import { FieldReader } from '../clients/parse.js';
import { callUpMetrics } from '../metrics/catalogue/call-up.js';
import { upgradesMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type Collector, type CollectContext } from './collector.js';
import { sideCall, UNANSWERED } from './side-call.js';

/** AvalancheGo marks an unscheduled upgrade with a year-9999 activation time. */
const UNSCHEDULED_AFTER_SECONDS = Date.parse('9000-01-01T00:00:00Z') / 1000;

const METRICS = [...upgradesMetrics, ...callUpMetrics];
/** Each ACP's three weights: since Helicon an ACP also lists its supporters' and objectors' node ids (125 KB), never read. */
const ACPS_ANSWER = gorillaAnswer({ acps: { '*': { supportWeight: true, objectWeight: true, abstainWeight: true } } });

/**
 * info.upgrades (activation times) and info.acps (ACP vote weights). info.acps is the node's tally
 * of its validator peers' supportedACPs/objectedACPs weighted by stake, so it is also the bounded
 * summary of what peers announce.
 */
export function createUpgradesCollector(): Collector {
  return {
    name: 'upgrades',
    metrics: METRICS,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const [upgrades, acps] = await Promise.all([
        ctx.node.call('/ext/info', 'info.upgrades', {}, ctx.signal),
        // The ACP tally is its own part: without it the upgrade times still count.
        sideCall(ctx, out, { collector: 'upgrades', method: 'info.acps' }, () =>
          ctx.node.callProjected('/ext/info', 'info.acps', {}, ACPS_ANSWER, ctx.signal),
        ),
      ]);
      const readUpgrades = new FieldReader(ctx.target.name, 'info.upgrades');
      for (const [field, value] of Object.entries(readUpgrades.object(upgrades, 'result'))) {
        if (!field.endsWith('Time')) continue;
        const upgrade = field.slice(0, -'Time'.length);
        const activation = readUpgrades.timestampSeconds(value, field);
        out.add('avaxmon_network_upgrade_activation_timestamp_seconds', { upgrade }, activation);
        out.add('avaxmon_network_upgrade_scheduled', { upgrade }, activation < UNSCHEDULED_AFTER_SECONDS);
      }
      if (acps !== UNANSWERED) exportAcpVotes(ctx, out, acps);
      return out.observation();
    },
  };
}

function exportAcpVotes(ctx: CollectContext, out: SampleSet, acps: unknown): void {
  const readAcps = new FieldReader(ctx.target.name, 'info.acps');
  const votes = readAcps.object(readAcps.object(acps, 'result').acps, 'acps');
  // Keyed by the node's list of current ACPs (constants.CurrentACPs), so the label set is bounded.
  for (const [acp, value] of Object.entries(votes)) {
    const vote = readAcps.object(value, `acps.${acp}`);
    const support = readAcps.navaxToAvax(vote.supportWeight, `acps.${acp}.supportWeight`);
    const object = readAcps.navaxToAvax(vote.objectWeight, `acps.${acp}.objectWeight`);
    const abstain = readAcps.navaxToAvax(vote.abstainWeight, `acps.${acp}.abstainWeight`);
    out.add('avaxmon_acp_support_weight_avax', { acp }, support);
    out.add('avaxmon_acp_object_weight_avax', { acp }, object);
    out.add('avaxmon_acp_abstain_weight_avax', { acp }, abstain);
    // Abstain is the rest of the primary network's stake, so the three add up to all of it.
    const total = support + object + abstain;
    if (total > 0) out.add('avaxmon_acp_support_stake_ratio', { acp }, support / total);
  }
}
