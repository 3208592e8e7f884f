import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { find, scrape, startStack, valueOf, type Stack } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

const WALLET = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
let stack: Stack | undefined;
let apis: Simulator | undefined;
afterEach(async () => {
  await stack?.close();
  await apis?.close();
  stack = apis = undefined;
});

/** A node simulator for the target and a second simulator standing in for the public APIs' host. */
async function startWithPublicApis(): Promise<{ stack: Stack; apis: Simulator }> {
  apis = await startSimulator();
  stack = await startStack({
    manualTime: true,
    // The requests' timeouts run in real time: long enough for a simulator on a loaded machine.
    globalYaml: '{ interval: 10s, timeout: 10s }',
    extraYaml: `
metrics_api: { url: ${apis.url}, chains: [43114, total], metrics: [txCount, avgTps, feesPaid], request_spacing: 0s }
data_api:
  url: ${apis.url}
  interval: 1s
  request_spacing: 0s
  delegators: { node_ids: [NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg] }
  balances: [{ chain_id: "43114", address: "${WALLET}", name: relayer-hot-wallet }]
`,
  });
  return { stack, apis };
}

describe('public API jobs in the daemon', () => {
  it('runs both jobs on their own schedule and serves their series on /metrics', async () => {
    const { stack, apis } = await startWithPublicApis();
    const samples = await scrape(stack.url);
    expect(valueOf(samples, 'avaxmon_collector_success', { target: 'metrics_api', collector: 'metrics_api' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_collector_success', { target: 'data_api', collector: 'data_api' })).toBe(1);
    expect(valueOf(samples, 'avaxmon_collector_success', { target: 'node-a', collector: 'health' })).toBe(1);
    expect(find(samples, 'avaxmon_chain_transactions', { chain_id: '43114', interval: 'day' })).toHaveLength(1);
    expect(valueOf(samples, 'avaxmon_delegators', { status: 'active' })).toBe(13);
    expect(valueOf(samples, 'avaxmon_address_native_balance', { chain_id: '43114', name: 'relayer-hot-wallet' })).toBe(25.5);
    expect(find(samples, 'avaxmon_rpc_requests_total', { target: 'data_api', outcome: 'success' }).length).toBeGreaterThan(0);

    apis.apply({ drain_balance: { chain_id: '43114', address: WALLET, amount: '25' } });
    await stack.time!.eventually(
      () => scrape(stack.url),
      (next) => valueOf(next, 'avaxmon_address_native_balance', { name: 'relayer-hot-wallet' }) === 0.5,
    );
  });

  it('passes promtool check metrics with the public API series', async () => {
    if (!requireTool('/usr/bin/promtool', 'prometheus')) return;
    const { stack } = await startWithPublicApis();
    const text = await (await fetch(`${stack.url}/metrics`)).text();
    expect(text).toContain('avaxmon_chain_metric_timestamp_seconds{');
    const result = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    // Only this feature's families are judged here; the whole exposition has its own promtool test.
    const ours = /^avaxmon_(chain_(?!bootstrapped|height|last_progress|tx_fee)|deleg|address_)/;
    const complaints = `${result.stdout}${result.stderr}`.split('\n').filter((line) => ours.test(line));
    expect(complaints).toEqual([]);
  });
});
