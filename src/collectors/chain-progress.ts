import { EvmRpcClient, hexQuantity } from '../clients/evm-rpc.js';
import { FieldReader } from '../clients/parse.js';
import { callUpMetrics } from '../metrics/catalogue/call-up.js';
import { chainUpMetrics } from '../metrics/catalogue/chains.js';
import { chainProgressMetrics } from '../metrics/catalogue/validators.js';
import { evmChains, watchedChains } from './chains.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { callOptional, type OptionalMethod } from './optional-method.js';
import { collectPerChain, type ChainPart } from './per-chain.js';
import { sideCall, UNANSWERED } from './side-call.js';
import { slowFact } from './slow-fact.js';

/** States of platform.getBlockchainStatus, exported as a 0/1 state set; UnknownChain becomes Unknown. */
const STATUSES = ['Validating', 'Created', 'Preferred', 'Syncing', 'Unknown'] as const;

interface Progress {
  readonly height: number;
  readonly changedAtSeconds: number;
}

const PROGRESS_PREFIX = 'progress/';

const METRICS = [...chainProgressMetrics, ...chainUpMetrics, ...callUpMetrics];

/**
 * Heights of the P-, X-, C- and configured L1 chains, and when each last moved. Each chain is
 * collected on its own (avaxmon_chain_up): a chain answering 503 while it bootstraps loses its own
 * series, never its neighbours'. The P-Chain part also carries what only the P-Chain answers: the
 * supply and every chain's status. The time of the last change lives in the collector's memory: a
 * stalled chain keeps an old timestamp, and the first run after the height moves again brings it to
 * now, so a staleness alert resolves.
 */
export function createChainProgressCollector(): Collector {
  return {
    name: 'chain_progress',
    metrics: METRICS,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const client = new EvmRpcClient(ctx.node);
      const parts: ChainPart[] = [
        pChain(ctx),
        xChain(ctx),
        ...evmChains(ctx.target, client).map(({ label, url }) => evmChain(ctx, client, label, url)),
      ];
      forgetRemovedChains(ctx, new Set(parts.map((part) => part.chain)));
      await collectPerChain(ctx, out, 'avaxmon_chain_up', parts);
      return out.observation();
    },
  };
}

function pChain(ctx: CollectContext): ChainPart {
  return {
    chain: 'P',
    async collect(out) {
      // The height is what the chain's progress needs; statuses and supply are parts of their own.
      const [height, statuses, supply] = await Promise.all([
        gorillaHeight(ctx, '/ext/bc/P', 'platform.getHeight'),
        sideCall(ctx, out, { collector: 'chain_progress', method: 'platform.getBlockchainStatus' }, () =>
          slowFact(ctx, 'statuses', () => blockchainStatuses(ctx)),
        ),
        sideCall(ctx, out, { collector: 'chain_progress', method: 'platform.getCurrentSupply' }, () =>
          slowFact(ctx, 'supply', () => currentSupply(ctx)),
        ),
      ]);
      exportHeight(ctx, out, 'P', height);
      for (const [chain, status] of statuses === UNANSWERED ? [] : statuses) {
        for (const state of STATUSES) out.add('avaxmon_blockchain_status', { chain, status: state }, state === status);
      }
      if (supply !== UNANSWERED) out.add('avaxmon_current_supply_avax', {}, supply);
    },
  };
}

function xChain(ctx: CollectContext): ChainPart {
  return {
    chain: 'X',
    async collect(out) {
      const [height, txFee] = await Promise.all([
        gorillaHeight(ctx, '/ext/bc/X', 'avm.getHeight'),
        sideCall(ctx, out, { collector: 'chain_progress', method: 'avm.getTxFee' }, () => slowFact(ctx, 'x-fees', () => xChainTxFee(ctx))),
      ]);
      exportHeight(ctx, out, 'X', height);
      if (txFee === UNANSWERED) return;
      out.add('avaxmon_chain_tx_fee_avax', { chain: 'X', fee: 'tx' }, txFee.tx);
      out.add('avaxmon_chain_tx_fee_avax', { chain: 'X', fee: 'create_asset' }, txFee.createAsset);
    },
  };
}

/** An EVM chain without eth_blockNumber (no such RPC on the node) answers "unavailable": not a failure. */
function evmChain(ctx: CollectContext, client: EvmRpcClient, label: string, url: string): ChainPart {
  return {
    chain: label,
    async collect(out) {
      const reply = await callOptional(ctx, out, blockNumberOf(label), () => client.call(url, 'eth_blockNumber', [], ctx.signal));
      if (reply !== undefined) exportHeight(ctx, out, label, hexQuantity(reply, ctx.target.name, 'eth_blockNumber'));
    },
  };
}

function exportHeight(ctx: CollectContext, out: SampleSet, chain: string, height: number): void {
  const progress = recordProgress(ctx.memory, chain, height, ctx.nowMs / 1000);
  out.add('avaxmon_chain_height', { chain }, height);
  out.add('avaxmon_chain_last_progress_timestamp_seconds', { chain }, progress.changedAtSeconds);
}

/**
 * Any change of height counts as progress (a rollback too); the first sighting starts the clock. A
 * chain that fails for a while keeps its entry, so a chain that comes back at the same height is
 * not mistaken for one that just moved.
 */
function recordProgress(memory: Map<string, unknown>, chain: string, height: number, nowSeconds: number): Progress {
  const previous = memory.get(PROGRESS_PREFIX + chain) as Progress | undefined;
  const progress = previous && previous.height === height ? previous : { height, changedAtSeconds: nowSeconds };
  memory.set(PROGRESS_PREFIX + chain, progress);
  return progress;
}

function forgetRemovedChains(ctx: CollectContext, chains: ReadonlySet<string>): void {
  for (const key of [...ctx.memory.keys()]) {
    if (key.startsWith(PROGRESS_PREFIX) && !chains.has(key.slice(PROGRESS_PREFIX.length))) ctx.memory.delete(key);
  }
}

async function gorillaHeight(ctx: CollectContext, path: string, method: string): Promise<number> {
  const read = new FieldReader(ctx.target.name, method);
  return read.uint64(read.object(await ctx.node.call(path, method, {}, ctx.signal), 'result').height, 'height');
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
      const reply = read.object(
        await ctx.node.call('/ext/bc/P', 'platform.getBlockchainStatus', { blockchainID: id }, ctx.signal),
        'result',
      );
      const status = read.string(reply.status, 'status');
      return [label, (STATUSES as readonly string[]).includes(status) ? status : 'Unknown'];
    }),
  );
  return new Map(replies);
}

async function currentSupply(ctx: CollectContext): Promise<number> {
  const read = new FieldReader(ctx.target.name, 'platform.getCurrentSupply');
  return read.navaxToAvax(
    read.object(await ctx.node.call('/ext/bc/P', 'platform.getCurrentSupply', {}, ctx.signal), 'result').supply,
    'supply',
  );
}

async function xChainTxFee(ctx: CollectContext): Promise<{ tx: number; createAsset: number }> {
  const read = new FieldReader(ctx.target.name, 'avm.getTxFee');
  const reply = read.object(await ctx.node.call('/ext/bc/X', 'avm.getTxFee', {}, ctx.signal), 'result');
  return { tx: read.navaxToAvax(reply.txFee, 'txFee'), createAsset: read.navaxToAvax(reply.createAssetTxFee, 'createAssetTxFee') };
}
