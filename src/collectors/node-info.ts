import { UpstreamError } from '../errors.js';
import { FieldReader } from '../clients/parse.js';
import { nodeInfoMetrics } from '../metrics/catalogue/node.js';
import { watchedChains, type WatchedChain } from './chains.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { callOptional, nodeMethod } from './optional-method.js';

/** Node identity (version, id, network), installed VMs and bootstrap state per chain. */
export function createNodeInfoCollector(): Collector {
  return {
    name: 'node_info',
    metrics: nodeInfoMetrics,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const read = (method: string) => new FieldReader(ctx.target.name, method);
      const [version, networkId, networkName, nodeIdReply, vmsReply, bootstrapped] = await Promise.all([
        ctx.node.call('/ext/info', 'info.getNodeVersion', {}, ctx.signal),
        ctx.node.call('/ext/info', 'info.getNetworkID', {}, ctx.signal),
        ctx.node.call('/ext/info', 'info.getNetworkName', {}, ctx.signal),
        optionalInfo(ctx, out, 'info.getNodeID'),
        optionalInfo(ctx, out, 'info.getVMs'),
        bootstrapStates(ctx),
      ]);
      const versionReader = read('info.getNodeVersion');
      const v = versionReader.object(version, 'result');
      const nodeId =
        nodeIdReply === undefined
          ? ''
          : read('info.getNodeID').string(read('info.getNodeID').object(nodeIdReply, 'result').nodeID, 'nodeID');
      if (nodeId) ctx.facts.nodeId = nodeId;
      out.add(
        'avaxmon_node_info',
        {
          node_id: nodeId,
          version: versionReader.string(v.version, 'version'),
          database_version: versionReader.optional(v.databaseVersion, 'databaseVersion', versionReader.string) ?? '',
          // A json.Uint32 ("42"), used as the label as sent.
          rpc_protocol_version: versionReader.optional(v.rpcProtocolVersion, 'rpcProtocolVersion', versionReader.uint64Text) ?? '',
          network: read('info.getNetworkName').string(read('info.getNetworkName').object(networkName, 'result').networkName, 'networkName'),
        },
        1,
      );
      out.add(
        'avaxmon_node_network_id',
        {},
        read('info.getNetworkID').uint64(read('info.getNetworkID').object(networkId, 'result').networkID, 'networkID'),
      );
      for (const [vm, vmVersion] of Object.entries(versionReader.object(v.vmVersions ?? {}, 'vmVersions'))) {
        out.add('avaxmon_node_vm_info', { vm, version: versionReader.string(vmVersion, `vmVersions.${vm}`) }, 1);
      }
      if (vmsReply !== undefined) exportInstalledVms(ctx, out, vmsReply);
      for (const [{ label, id }, isBootstrapped] of bootstrapped)
        out.add('avaxmon_chain_bootstrapped', { chain: label, check: id }, isBootstrapped);
      return out.observation();
    },
  };
}

/** info.getVMs: each installed VM by id with its aliases (`["evm"]`; a VM may have none or several). */
function exportInstalledVms(ctx: CollectContext, out: SampleSet, reply: unknown): void {
  const read = new FieldReader(ctx.target.name, 'info.getVMs');
  for (const [vmId, aliases] of Object.entries(read.object(read.object(reply, 'result').vms, 'vms'))) {
    const names = read.array(aliases, `vms.${vmId}`).map((alias, index) => read.string(alias, `vms.${vmId}[${index}]`));
    out.add('avaxmon_node_installed_vm_info', { vm_id: vmId, aliases: names.join(',') }, 1);
  }
}

function optionalInfo(ctx: CollectContext, out: SampleSet, method: string): Promise<unknown> {
  return callOptional(ctx, out, nodeMethod(method), () => ctx.node.call('/ext/info', method, {}, ctx.signal));
}

async function bootstrapStates(ctx: CollectContext): Promise<Array<[WatchedChain, boolean]>> {
  return Promise.all(
    watchedChains(ctx.target).map(async (chain): Promise<[WatchedChain, boolean]> => {
      const { label, id } = chain;
      try {
        const reply = await ctx.node.call('/ext/info', 'info.isBootstrapped', { chain: id }, ctx.signal);
        const read = new FieldReader(ctx.target.name, 'info.isBootstrapped');
        return [chain, read.boolean(read.object(reply, 'result').isBootstrapped, 'isBootstrapped')];
      } catch (error) {
        if (!isUnknownChain(error)) throw error;
        reportUnknownChainOnce(ctx, label, id);
        return [chain, false];
      }
    }),
  );
}

/** AvalancheGo's answer for a chain it does not run: "there is no chain with alias/ID '<id>'". */
function isUnknownChain(error: unknown): boolean {
  return error instanceof UpstreamError && error.outcome === 'rpc_error' && /there is no chain with alias\/ID/.test(error.message);
}

/**
 * A configured chain the node does not run is not bootstrapped (so the alert can say so), not a
 * failed collection; it is logged once, not on every run.
 */
function reportUnknownChainOnce(ctx: CollectContext, label: string, id: string): void {
  const key = `info.isBootstrapped/${id}`;
  if (ctx.facts.unavailableMethods.has(key)) return;
  ctx.facts.unavailableMethods.add(key);
  ctx.log.warn({ chain: label, chainId: id }, 'The node does not run this configured chain; reporting it as not bootstrapped');
}
