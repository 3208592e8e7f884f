import type { DataApiClient, DelegationStatus, Delegator } from '../../clients/data-api.js';
import { listPages } from '../../clients/pager.js';
import type { DataApiConfig } from '../../config/public-api-schema.js';
import { SampleSet, type Observation } from '../collector.js';
import type { SliceRun, SliceRunContext } from '../run-collector.js';

const DATA_API_JOB = 'data_api';

/** The Data API job: delegations to the watched validators and native balances of watched addresses. */
export function createDataApiRun(config: DataApiConfig, client: DataApiClient): SliceRun {
  return {
    target: DATA_API_JOB,
    collector: DATA_API_JOB,
    intervalMs: config.interval,
    origin: new URL(config.url).origin,
    collect: (ctx) => collectDataApi(config, client, ctx),
  };
}

async function collectDataApi(config: DataApiConfig, client: DataApiClient, ctx: SliceRunContext): Promise<Observation> {
  client.rest.beginRun();
  const out = new SampleSet({});
  for (const status of config.delegators?.statuses ?? []) {
    addDelegations(out, config.delegators!.node_ids, status, await listDelegators(config, client, status, ctx));
  }
  for (const balance of config.balances) {
    const native = await client.nativeBalance(
      { chainId: balance.chain_id, address: balance.address, currency: config.currency },
      ctx.signal,
    );
    out.add('avaxmon_address_native_balance', { chain_id: balance.chain_id, name: balance.name }, native.balance);
    if (native.value) {
      out.add(
        'avaxmon_address_native_balance_value',
        { chain_id: balance.chain_id, name: balance.name, currency: config.currency },
        native.value.amount,
      );
    }
  }
  return out.observation();
}

/** Every page of one status: a count over part of the list would be a wrong number, not a partial one. */
async function listDelegators(
  config: DataApiConfig,
  client: DataApiClient,
  status: DelegationStatus,
  ctx: SliceRunContext,
): Promise<Delegator[]> {
  const nodeIds = config.delegators!.node_ids;
  const listing = await listPages(
    (pageToken) => client.delegatorsPage({ network: config.network, nodeIds, status, pageSize: config.page_size, pageToken }, ctx.signal),
    {
      maxPages: config.max_pages,
      onRestart: (error) => ctx.log.info({ status, err: error }, 'Page token expired; listing delegators again from the first page'),
    },
  );
  if (listing.truncated) {
    throw new Error(
      `data_api: ${status} delegators of the watched nodes span more than max_pages (${config.max_pages}) pages of ${config.page_size}; raise data_api.max_pages or drop "${status}" from delegators.statuses`,
    );
  }
  return listing.items;
}

function addDelegations(out: SampleSet, nodeIds: readonly string[], status: DelegationStatus, delegators: readonly Delegator[]): void {
  for (const nodeId of nodeIds) {
    const mine = delegators.filter((delegator) => delegator.nodeId === nodeId);
    out.add('avaxmon_delegators', { node_id: nodeId, status }, mine.length);
    out.add(
      'avaxmon_delegated_avax',
      { node_id: nodeId, status },
      sum(mine, (delegator) => delegator.amountAvax),
    );
    if (status !== 'active') continue;
    out.add(
      'avaxmon_delegation_active_gross_reward_avax',
      { node_id: nodeId },
      sum(mine, (delegator) => delegator.grossRewardAvax),
    );
    out.add(
      'avaxmon_delegation_active_net_reward_avax',
      { node_id: nodeId },
      sum(mine, (delegator) => delegator.netRewardAvax),
    );
  }
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}
