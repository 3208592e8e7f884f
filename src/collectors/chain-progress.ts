import { EvmRpcClient, hexQuantity } from '../clients/evm-rpc.js';
import { FieldReader } from '../clients/parse.js';
import { chainProgressMetrics } from '../metrics/catalogue/validators.js';
import { evmChains, watchedChains } from './chains.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { callOptional, type OptionalMethod } from './optional-method.js';

/** States of platform.getBlockchainStatus, exported as a 0/1 state set; UnknownChain becomes Unknown. */
const STATUSES = ['Validating', 'Created', 'Preferred', 'Syncing', 'Unknown'] as const;

interface Progress {
  readonly height: number;
  readonly changedAtSeconds: number;
}

/**
 * Heights of the P-, X-, C- and configured L1 chains, and when each last moved. The time of the
 * last change lives in the collector's memory: a stalled chain keeps an old timestamp, and the first
 * run after the height moves again brings it to now, so a staleness alert resolves.
 */
export function createChainProgressCollector(): Collector {
  return {
    name: 'chain_progress',
    metrics: chainProgressMetrics,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const [heights, statuses, supply, txFee] = await Promise.all([chainHeights(ctx, out), blockchainStatuses(ctx), currentSupply(ctx), xChainTxFee(ctx)]);
      const nowSeconds = ctx.nowMs / 1000;
      for (const [chain, height] of heights) {
        const progress = recordProgress(ctx.memory, chain, height, nowSeconds);
        out.add('avaxmon_chain_height', { chain }, height);
        out.add('avaxmon_chain_last_progress_timestamp_seconds', { chain }, progress.changedAtSeconds);
      }
      for (const key of [...ctx.memory.keys()]) if (!heights.has(key)) ctx.memory.delete(key);
      for (const [chain, status] of statuses) {
        for (const state of STATUSES) out.add('avaxmon_blockchain_status', { chain, status: state }, state === status);
      }
      out.add('avaxmon_current_supply_avax', {}, supply);
      out.add('avaxmon_chain_tx_fee_avax', { chain: 'X', fee: 'tx' }, txFee.tx);
      out.add('avaxmon_chain_tx_fee_avax', { chain: 'X', fee: 'create_asset' }, txFee.createAsset);
      return out.observation();
    },
  };
}

/** Any change of height counts as progress (a rollback too); the first sighting starts the clock. */
function recordProgress(memory: Map<string, unknown>, chain: string, height: number, nowSeconds: number): Progress {
  const previous = memory.get(chain) as Progress | undefined;
  const progress = previous && previous.height === height ? previous : { height, changedAtSeconds: nowSeconds };
  memory.set(chain, progress);
  return progress;
}

async function chainHeights(ctx: CollectContext, out: SampleSet): Promise<Map<string, number>> {
  const client = new EvmRpcClient(ctx.node);
  const gorilla = async (path: string, method: string) => {
    const read = new FieldReader(ctx.target.name, method);
    return read.number(read.object(await ctx.node.call(path, method, {}, ctx.signal), 'result').height, 'height');
  };
  const evm = evmChains(ctx.target, client).map(async ({ label, url }): Promise<[string, number] | undefined> => {
    const reply = await callOptional(ctx, out, blockNumberOf(label), () => client.call(url, 'eth_blockNumber', [], ctx.signal));
    return reply === undefined ? undefined : [label, hexQuantity(reply, ctx.target.name, 'eth_blockNumber')];
  });
  const heights = await Promise.all([
    gorilla('/ext/bc/P', 'platform.getHeight').then((height): [string, number] => ['P', height]),
    gorilla('/ext/bc/X', 'avm.getHeight').then((height): [string, number] => ['X', height]),
    ...evm,
  ]);
  return new Map(heights.filter((entry) => entry !== undefined));
}

function blockNumberOf(chain: string): OptionalMethod {
  return { key: `${chain}:eth_blockNumber`, method: 'eth_blockNumber', gauge: 'avaxmon_chain_height_available', labels: { chain } };
}

/** Every watched chain but the P-Chain, which the P-Chain does not list among its blockchains. */
async function blockchainStatuses(ctx: CollectContext): Promise<Map<string, string>> {
  const chains = watchedChains(ctx.target).filter((chain) => chain.id !== 'P');
  const read = new FieldReader(ctx.target.name, 'platform.getBlockchainStatus');
  const replies = await Promise.all(
    chains.map(async ({ label, id }): Promise<[string, string]> => {
      const reply = read.object(await ctx.node.call('/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: id }, ctx.signal), 'result');
      const status = read.string(reply.status, 'status');
      return [label, (STATUSES as readonly string[]).includes(status) ? status : 'Unknown'];
    }),
  );
  return new Map(replies);
}

async function currentSupply(ctx: CollectContext): Promise<number> {
  const read = new FieldReader(ctx.target.name, 'platform.getCurrentSupply');
  return read.navaxToAvax(read.object(await ctx.node.call('/ext/bc/P', 'platform.getCurrentSupply', {}, ctx.signal), 'result').supply, 'supply');
}

async function xChainTxFee(ctx: CollectContext): Promise<{ tx: number; createAsset: number }> {
  const read = new FieldReader(ctx.target.name, 'avm.getTxFee');
  const reply = read.object(await ctx.node.call('/ext/bc/X', 'avm.getTxFee', {}, ctx.signal), 'result');
  return { tx: read.navaxToAvax(reply.txFee, 'txFee'), createAsset: read.navaxToAvax(reply.createAssetTxFee, 'createAssetTxFee') };
}
