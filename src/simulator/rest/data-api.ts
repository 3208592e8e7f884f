import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BALANCE_CURRENCIES, DELEGATION_STATUSES } from '../../clients/data-api.js';
import type { SimState } from '../state.js';
import type { RestRoute } from './route.js';
import {
  DEFAULT_BALANCE_WEI,
  hasHeader,
  logRequest,
  pageSizeOf,
  paginate,
  publicApiWorld,
  scriptedFailure,
  sendApiError,
  sendOk,
  type PublicApiWorld,
} from './public-api-world.js';

const DELEGATORS_PATH = /^\/v1\/networks\/(mainnet|fuji|testnet)\/delegators$/;
const BALANCE_PATH = /^\/v1\/chains\/([^/]+)\/addresses\/([^/]+)\/balances:getNative$/;
const NAVAX_PER_AVAX = 1_000_000_000n;
/** Prices of the native token per currency, so `balanceValue` has something to say. */
const PRICES: Partial<Record<string, number>> = { usd: 20, eur: 18.5, gbp: 16 };

/** The Data API's List delegators and Get native balance routes. */
export const dataApiRoute: RestRoute = (state, request, url, response, nowMs) => {
  const delegators = DELEGATORS_PATH.exec(url.pathname);
  const balance = BALANCE_PATH.exec(url.pathname);
  if (request.method !== 'GET' || (!delegators && !balance)) return false;
  const world = publicApiWorld(state);
  const status =
    authFailure(world, request, response) ||
    scriptedFailure(world, 'data', response, nowMs) ||
    (delegators ? listDelegators(world, state, url, response, nowMs) : nativeBalance(world, balance!, url, response));
  logRequest(world, {
    api: 'data',
    path: url.pathname,
    atMs: nowMs,
    status,
    pageToken: url.searchParams.get('pageToken') ?? undefined,
    hasKey: hasHeader(request, 'x-data-api-key'),
  });
  return true;
};

function authFailure(world: PublicApiWorld, request: IncomingMessage, response: ServerResponse): number {
  if (!world.requiredKey) return 0;
  const presented = request.headers['x-data-api-key'];
  if (presented !== world.requiredKey.key) {
    // Gateways echo a rejected key back; the client must scrub it from its logs.
    sendApiError(response, 'data', 401, typeof presented === 'string' ? `Invalid API key: ${presented}` : 'Unauthorized');
    return 401;
  }
  if (!world.requiredKey.privileged) {
    sendApiError(response, 'data', 403, 'Forbidden resource');
    return 403;
  }
  return 0;
}

function listDelegators(world: PublicApiWorld, state: SimState, url: URL, response: ServerResponse, nowMs: number): number {
  const pageSize = pageSizeOf(url, 10, 100);
  if (pageSize === undefined) return badRequest(response, 'pageSize must not be greater than 100 and not less than 1');
  const status = url.searchParams.get('delegationStatus');
  if (status !== null && !(DELEGATION_STATUSES as readonly string[]).includes(status)) {
    return badRequest(response, `delegationStatus must be one of the following values: ${DELEGATION_STATUSES.join(', ')}`);
  }
  const nodeIds = (url.searchParams.get('nodeIds') ?? state.nodeId).split(',').filter(Boolean);
  const all = nodeIds
    .flatMap((nodeId) => simulatedDelegators(nodeId, world.delegatorsPerNode, nowMs))
    .filter((delegator) => status === null || delegator.delegationStatus === status)
    .sort((a, b) => b.startTimestamp - a.startTimestamp);
  const result = paginate(world, `delegators/${nodeIds.join(',')}/${status}`, all, pageSize, url.searchParams.get('pageToken'));
  if ('error' in result) return badRequest(response, result.error);
  sendOk(response, { delegators: result.page, ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}) });
  return 200;
}

/** A node's delegators: every fifth pending, every fifth completed, the rest active. */
export function simulatedDelegators(nodeId: string, count: number, nowMs: number) {
  const now = Math.floor(nowMs / 1000);
  return Array.from({ length: count }, (_, index) => {
    const amount = BigInt(25 + index) * NAVAX_PER_AVAX;
    const gross = (amount * 5n) / 100n;
    const status = index % 5 === 0 ? 'pending' : index % 5 === 1 ? 'completed' : 'active';
    const start = status === 'pending' ? now + 3600 : status === 'completed' ? now - 90 * 86_400 : now - (index + 1) * 86_400;
    return {
      txHash: createHash('sha256').update(`${nodeId}/${index}`).digest('hex'),
      nodeId,
      rewardAddresses: [`avax1sim${index}`],
      amountDelegated: amount.toString(),
      delegationFee: ((gross * 2n) / 100n).toString(),
      startTimestamp: start,
      endTimestamp: start + 30 * 86_400,
      grossReward: gross.toString(),
      netReward: ((gross * 98n) / 100n).toString(),
      delegationStatus: status,
    };
  });
}

function nativeBalance(world: PublicApiWorld, [, chainId, address]: RegExpExecArray, url: URL, response: ServerResponse): number {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return badRequest(response, 'Invalid address format');
  const currency = url.searchParams.get('currency') ?? 'usd';
  if (!(BALANCE_CURRENCIES as readonly string[]).includes(currency))
    return badRequest(response, `currency must be one of the following values: ${BALANCE_CURRENCIES.join(', ')}`);
  const balance = world.balances.get(balanceKey(chainId, address)) ?? DEFAULT_BALANCE_WEI;
  const price = PRICES[currency] ?? 10;
  const value = (Number(balance / 10n ** 12n) / 1e6) * price;
  sendOk(response, {
    nativeTokenBalance: {
      name: 'Avalanche',
      symbol: 'AVAX',
      decimals: 18,
      logoUri: 'https://images.ctfassets.net/avalanche.png',
      chainId,
      price: { currencyCode: currency, value: price.toFixed(2) },
      balance: balance.toString(),
      balanceValue: { currencyCode: currency, value: value.toFixed(2) },
    },
  });
  return 200;
}

export function balanceKey(chainId: string, address: string): string {
  return `${chainId}/${address.toLowerCase()}`;
}

function badRequest(response: ServerResponse, message: string): number {
  sendApiError(response, 'data', 400, message);
  return 400;
}
