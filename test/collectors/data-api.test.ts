import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DELEGATORS_ROUTE, NATIVE_BALANCE_ROUTE } from '../../src/clients/data-api.js';
import { simulatedDelegators } from '../../src/simulator/rest/data-api.js';
import { publicApiWorld } from '../../src/simulator/rest/public-api-world.js';
import { startPublicApiHarness, type PublicApiHarness } from './public-api-harness.js';

const NODE_A = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const NODE_B = 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ';
const WALLET = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const KEY = 'sim-data-api-key-0123456789';

let harness: PublicApiHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function keyFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'avaxmon-key-')), 'data-api-key');
  writeFileSync(file, `${KEY}\n`);
  return file;
}

function dataApi(extra = ''): (url: string) => string {
  return (url) => `
data_api:
  url: ${url}
  network: mainnet
  interval: 10m
  request_spacing: 0s
  page_size: 5
  delegators: { node_ids: [${NODE_A}, ${NODE_B}] }
  balances:
    - { chain_id: "43114", address: "${WALLET}", name: relayer-hot-wallet }
${extra}
`;
}

/** What the simulator's delegators add up to, computed from its own generator. */
function expected(nodeId: string, status: string) {
  const mine = simulatedDelegators(nodeId, 23, Date.now()).filter((delegator) => delegator.delegationStatus === status);
  const avax = (field: 'amountDelegated' | 'grossReward' | 'netReward') =>
    mine.reduce((total, delegator) => total + Number(delegator[field]) / 1e9, 0);
  return { count: mine.length, amount: avax('amountDelegated'), gross: avax('grossReward'), net: avax('netReward') };
}

describe('Data API collector', () => {
  it('counts delegators by status over every page, sums delegated AVAX and active rewards, and reads balances', async () => {
    harness = await startPublicApiHarness(dataApi());
    const result = await harness.run('data_api');
    expect(result.error).toBeUndefined();
    for (const nodeId of [NODE_A, NODE_B]) {
      for (const status of ['active', 'pending']) {
        const want = expected(nodeId, status);
        expect(harness.value('avaxmon_delegators', { node_id: nodeId, status })).toBe(want.count);
        expect(harness.value('avaxmon_delegated_avax', { node_id: nodeId, status })).toBeCloseTo(want.amount, 6);
      }
      const active = expected(nodeId, 'active');
      expect(active.count).toBe(13);
      expect(harness.value('avaxmon_delegation_active_gross_reward_avax', { node_id: nodeId })).toBeCloseTo(active.gross, 6);
      expect(harness.value('avaxmon_delegation_active_net_reward_avax', { node_id: nodeId })).toBeCloseTo(active.net, 6);
      expect(harness.value('avaxmon_delegators', { node_id: nodeId, status: 'completed' })).toBeUndefined();
    }
    expect(harness.value('avaxmon_address_native_balance', { chain_id: '43114', name: 'relayer-hot-wallet' })).toBe(25.5);
    expect(harness.value('avaxmon_address_native_balance_value', { chain_id: '43114', name: 'relayer-hot-wallet', currency: 'usd' })).toBe(
      510,
    );
    // 26 active delegations at 5 a page is 6 pages; 10 pending is 2; one balance.
    const requests = harness.requests('data');
    expect(requests).toHaveLength(9);
    expect(requests.every((request) => !request.hasKey)).toBe(true);
    expect(harness.selfValue('avaxmon_rpc_requests_total', { target: 'data_api', method: DELEGATORS_ROUTE, outcome: 'success' })).toBe(8);
    expect(harness.selfValue('avaxmon_rpc_requests_total', { target: 'data_api', method: NATIVE_BALANCE_ROUTE, outcome: 'success' })).toBe(
      1,
    );
  });

  it('follows a draining balance down', async () => {
    harness = await startPublicApiHarness(dataApi());
    await harness.run('data_api');
    harness.sim.apply({ drain_balance: { chain_id: '43114', address: WALLET, amount: '25.25' } });
    await harness.run('data_api');
    expect(harness.value('avaxmon_address_native_balance', { name: 'relayer-hot-wallet' })).toBe(0.25);
    expect(harness.value('avaxmon_address_native_balance_value', { name: 'relayer-hot-wallet' })).toBe(5);
    harness.sim.apply({ drain_balance: { chain_id: '43114', address: WALLET, amount: '1' } });
    await harness.run('data_api');
    expect(harness.value('avaxmon_address_native_balance', { name: 'relayer-hot-wallet' })).toBe(0);
  });

  it('restarts the delegator listing from the first page when a page token expired, counting nothing twice', async () => {
    harness = await startPublicApiHarness(dataApi());
    harness.sim.apply({ expire_page_tokens: { next: 1 } });
    expect((await harness.run('data_api')).success).toBe(true);
    expect(harness.value('avaxmon_delegators', { node_id: NODE_A, status: 'active' })).toBe(13);
    const statuses = harness.requests('data').map((request) => request.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(1);
    expect(harness.requests('data')[2].pageToken).toBeUndefined();
  });

  it('fails the run, naming the cap, when a listing needs more pages than max_pages', async () => {
    harness = await startPublicApiHarness(dataApi('  max_pages: 3'));
    const result = await harness.run('data_api');
    expect(result.success).toBe(false);
    expect(String((result.error as Error).message)).toContain('span more than max_pages (3) pages of 5');
    expect(harness.requests('data')).toHaveLength(3);
    expect(harness.samples('data_api')).toEqual([]);
  });

  it('sends the key as x-data-api-key from api_key_file and never logs it, even when the API echoes it', async () => {
    harness = await startPublicApiHarness(dataApi(`  api_key_file: ${keyFile()}`));
    harness.sim.apply({ require_data_api_key: { key: KEY } });
    expect((await harness.run('data_api')).success).toBe(true);
    expect(harness.requests('data').every((request) => request.hasKey)).toBe(true);

    harness.sim.apply({ require_data_api_key: { key: 'another-key-the-api-wants' } });
    const rejected = await harness.run('data_api');
    expect(rejected.success).toBe(false);
    const logged = harness.logs.join('\n');
    expect(logged).toContain('Data API key missing or not accepted');
    expect(logged).toContain('Invalid API key: <redacted>');
    expect(logged).not.toContain(KEY);
  });

  it('says the key is missing on 401 without a key, and that it lacks privilege on 403', async () => {
    harness = await startPublicApiHarness(dataApi());
    harness.sim.apply({ require_data_api_key: { key: KEY } });
    const missing = await harness.run('data_api');
    expect(String((missing.error as Error).message)).toContain(
      'Data API key missing: set data_api.api_key or data_api.api_key_file (HTTP 401',
    );
    await harness.close();

    harness = await startPublicApiHarness(dataApi('  api_key: ${AVAX_DATA_API_KEY}'), { AVAX_DATA_API_KEY: KEY });
    harness.sim.apply({ require_data_api_key: { key: KEY, privileged: false } });
    const forbidden = await harness.run('data_api');
    expect(String((forbidden.error as Error).message)).toContain('Data API key lacks privilege for this route (HTTP 403');
    expect(harness.selfValue('avaxmon_collector_success', { target: 'data_api', collector: 'data_api' })).toBe(0);
    expect(harness.logs.join('\n')).not.toContain(KEY);
  });

  it('backs off on 429 until Retry-After, and fails a run on 503 to retry on the next', async () => {
    harness = await startPublicApiHarness(dataApi('  max_retry_wait: 100ms'));
    harness.sim.apply({ public_api_rate_limit: { api: 'data', retry_after: '500ms' } });
    const limitedUntil = publicApiWorld(harness.sim.state).rateLimitedUntilMs.data;
    expect((await harness.run('data_api')).success).toBe(false);
    expect((await harness.run('data_api')).success).toBe(false);
    expect(harness.requests('data')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, limitedUntil - Date.now() + 20));
    expect((await harness.run('data_api')).success).toBe(true);
    expect(harness.requests('data')[1].atMs).toBeGreaterThanOrEqual(limitedUntil);

    harness.sim.apply({ public_api_unavailable: { api: 'data', for: '200ms' } });
    const failed = await harness.run('data_api');
    expect(String((failed.error as Error).message)).toContain('HTTP 503');
    expect(harness.samples('data_api')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await harness.run('data_api')).success).toBe(true);
    expect(harness.value('avaxmon_delegators', { node_id: NODE_B, status: 'pending' })).toBe(5);
  });

  it('serves the Data API error body with a string message', async () => {
    harness = await startPublicApiHarness(dataApi());
    const response = await fetch(`${harness.sim.url}/v1/networks/mainnet/delegators?pageSize=500`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'pageSize must not be greater than 100 and not less than 1',
      error: 'Bad Request',
      statusCode: 400,
    });
  });
});
