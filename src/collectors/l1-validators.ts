import { FieldReader, type Entry } from '../clients/parse.js';
import type { SubnetConfig } from '../config/schema.js';
import { subnetValidatorMetrics } from '../metrics/catalogue/validators.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { callOptional, type OptionalMethod } from './optional-method.js';
import { resolveNodeIds } from './validators/watched-nodes.js';

const METHOD = 'validators.getCurrentValidators';

/**
 * subnet-evm's validators API on each configured L1 chain (/ext/bc/<blockchain_id>/validators):
 * this node's own uptime tracking of the L1's validators. Unlike the P-Chain, the numbers here are
 * plain JSON numbers and uptimePercentage is a float 0..100. Without L1 chains configured the
 * collector exports nothing.
 */
export function createL1ValidatorsCollector(): Collector {
  return {
    name: 'l1_validators',
    metrics: subnetValidatorMetrics,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const chains = ctx.target.subnets.filter((subnet) => subnet.blockchain_id !== undefined);
      await Promise.all(chains.map((subnet) => collectChain(ctx, out, subnet)));
      return out.observation();
    },
  };
}

/** A wrong blockchain_id, or an L1 this node does not run, has no validators API: one chain, not the run. */
function validatorsApiOf(subnet: string): OptionalMethod {
  return { key: `${subnet}:${METHOD}`, method: METHOD, gauge: 'avaxmon_subnet_validators_api_available', labels: { subnet } };
}

async function collectChain(ctx: CollectContext, out: SampleSet, subnet: SubnetConfig): Promise<void> {
  const nodeIds = await resolveNodeIds(ctx, subnet.node_ids ?? ctx.target.validators.node_ids);
  if (nodeIds.length === 0) return;
  const read = new FieldReader(ctx.target.name, METHOD);
  const answer = await callOptional(ctx, out, validatorsApiOf(subnet.name), () =>
    ctx.node.call(`/ext/bc/${subnet.blockchain_id}/validators`, METHOD, { nodeIDs: nodeIds }, ctx.signal),
  );
  if (answer === undefined) return;
  const listed = new Map<string, Entry>();
  for (const entry of read.entries(read.object(answer, 'result').validators, 'validators')) {
    listed.set(entry.read.string(entry.fields.nodeID, 'nodeID'), entry);
  }
  for (const nodeId of nodeIds) {
    const labels = { subnet: subnet.name, node_id: nodeId };
    const entry = listed.get(nodeId);
    if (entry) exportValidator(out, labels, entry);
    else out.add('avaxmon_subnet_validator_active', labels, 0);
  }
}

function exportValidator(out: SampleSet, labels: Record<string, string>, { fields, read }: Entry): void {
  out.add('avaxmon_subnet_validator_active', labels, read.boolean(fields.isActive, 'isActive'));
  out.add('avaxmon_subnet_validator_is_l1', labels, read.boolean(fields.isL1Validator, 'isL1Validator'));
  out.add('avaxmon_subnet_validator_connected', labels, read.boolean(fields.isConnected, 'isConnected'));
  out.add('avaxmon_subnet_validator_uptime_seconds', labels, read.number(fields.uptimeSeconds, 'uptimeSeconds'));
  out.add('avaxmon_subnet_validator_uptime_ratio', labels, read.percentRatio(fields.uptimePercentage, 'uptimePercentage'));
  out.add('avaxmon_subnet_validator_weight', labels, read.number(fields.weight, 'weight'));
  out.add('avaxmon_subnet_validator_start_timestamp_seconds', labels, read.number(fields.startTimestamp, 'startTimestamp'));
}
