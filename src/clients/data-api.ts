import { FieldReader } from './parse.js';
import type { Page } from './pager.js';
import type { RestApiClient } from './rest-api.js';

export const DELEGATION_STATUSES = ['active', 'pending', 'completed'] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];

export const DATA_API_NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;

/** The currencies `balances:getNative` prices a balance in. */
export const BALANCE_CURRENCIES = [
  'usd',
  'eur',
  'aud',
  'cad',
  'chf',
  'clp',
  'cny',
  'czk',
  'dkk',
  'gbp',
  'hkd',
  'huf',
  'jpy',
  'nzd',
] as const;

export interface Delegator {
  readonly nodeId: string;
  readonly status: string;
  readonly amountAvax: number;
  readonly grossRewardAvax: number;
  readonly netRewardAvax: number;
}

export interface NativeBalance {
  readonly symbol: string;
  /** In whole tokens, scaled by the token's `decimals`. */
  readonly balance: number;
  /** The balance's value in the requested currency, when the API prices the token. */
  readonly value?: { currency: string; amount: number };
}

export const DELEGATORS_ROUTE = 'GET /v1/networks/{network}/delegators';
export const NATIVE_BALANCE_ROUTE = 'GET /v1/chains/{chainId}/addresses/{address}/balances:getNative';

/** Typed access to the Data API routes avaxmon uses. The key travels in `x-data-api-key`. */
export class DataApiClient {
  constructor(readonly rest: RestApiClient) {}

  async delegatorsPage(
    query: { network: string; nodeIds: readonly string[]; status: DelegationStatus; pageSize: number; pageToken?: string },
    signal: AbortSignal,
  ): Promise<Page<Delegator>> {
    const body = await this.rest.getJson({
      route: DELEGATORS_ROUTE,
      path: `v1/networks/${encodeURIComponent(query.network)}/delegators`,
      query: {
        nodeIds: query.nodeIds.join(','),
        delegationStatus: query.status,
        pageSize: query.pageSize,
        pageToken: query.pageToken,
      },
      signal,
    });
    const read = new FieldReader(this.rest.options.api, DELEGATORS_ROUTE);
    const object = read.object(body, 'body');
    const items = read.array(object.delegators, 'delegators').map((entry, index) => {
      const path = `delegators[${index}]`;
      const delegator = read.object(entry, path);
      return {
        nodeId: read.string(delegator.nodeId, `${path}.nodeId`),
        status: read.string(delegator.delegationStatus, `${path}.delegationStatus`),
        amountAvax: read.navaxToAvax(delegator.amountDelegated, `${path}.amountDelegated`),
        grossRewardAvax: read.navaxToAvax(delegator.grossReward ?? '0', `${path}.grossReward`),
        netRewardAvax: read.navaxToAvax(delegator.netReward ?? '0', `${path}.netReward`),
      };
    });
    const token = object.nextPageToken;
    return { items, nextPageToken: typeof token === 'string' && token !== '' ? token : undefined };
  }

  async nativeBalance(query: { chainId: string; address: string; currency: string }, signal: AbortSignal): Promise<NativeBalance> {
    const body = await this.rest.getJson({
      route: NATIVE_BALANCE_ROUTE,
      path: `v1/chains/${encodeURIComponent(query.chainId)}/addresses/${query.address}/balances:getNative`,
      query: { currency: query.currency },
      signal,
    });
    const read = new FieldReader(this.rest.options.api, NATIVE_BALANCE_ROUTE);
    const token = read.object(read.object(body, 'body').nativeTokenBalance, 'nativeTokenBalance');
    const decimals = read.number(token.decimals, 'nativeTokenBalance.decimals');
    const raw = read.string(token.balance, 'nativeTokenBalance.balance');
    if (!/^\d+$/.test(raw) || !Number.isInteger(decimals) || decimals < 0 || decimals > 36) {
      read.fail('nativeTokenBalance', 'a balance in the smallest unit and integer decimals', { balance: raw, decimals });
    }
    const priced =
      token.balanceValue === undefined || token.balanceValue === null
        ? undefined
        : read.object(token.balanceValue, 'nativeTokenBalance.balanceValue');
    return {
      symbol: typeof token.symbol === 'string' ? token.symbol : '',
      balance: scaleByDecimals(raw, decimals),
      value: priced && {
        currency: read.string(priced.currencyCode, 'nativeTokenBalance.balanceValue.currencyCode'),
        amount: read.number(priced.value, 'nativeTokenBalance.balanceValue.value'),
      },
    };
  }
}

/** "12500000000000000000" with 18 decimals is 12.5; integer and fraction are split exactly first. */
function scaleByDecimals(raw: string, decimals: number): number {
  const unit = 10n ** BigInt(decimals);
  const amount = BigInt(raw);
  return Number(amount / unit) + Number(amount % unit) / Number(unit);
}
