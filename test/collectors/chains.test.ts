import { describe, expect, it } from 'vitest';
import { NodeClient } from '../../src/clients/avalanchego.js';
import { EvmRpcClient } from '../../src/clients/evm-rpc.js';
import { HttpClient } from '../../src/clients/http.js';
import { evmChains, watchedChains } from '../../src/collectors/chains.js';
import { parseConfig } from '../../src/config/load.js';
import { SelfMetrics } from '../../src/metrics/self-metrics.js';

const config = parseConfig(`targets:
  - name: node-a
    url: http://127.0.0.1:9650
    chains: [extra]
    subnets:
      - { name: permissioned, subnet_id: 2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r }
      - { name: dfk, subnet_id: Vn3aX6hNRstj5VHHm63TCgPNaeGnRSqCYXQqemSqDd2TQH4qJ, blockchain_id: q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi }
      - { name: viaurl, subnet_id: 2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r, blockchain_id: 2rwhRKN8qfxK9AEJunfUjn5WH7PQzUPPQKCb59ak6fwsrwF2R, rpc_url: 'http://rpc.example/ext/bc/x/rpc' }
`);
const target = config.targets[0];

describe('chain lists', () => {
  it('watches P, X, C, every L1 chain by subnet name (not a subnet without blockchain_id) and the extra chains', () => {
    expect(watchedChains(target)).toEqual([
      { label: 'P', id: 'P' },
      { label: 'X', id: 'X' },
      { label: 'C', id: 'C' },
      { label: 'dfk', id: 'q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi' },
      { label: 'viaurl', id: '2rwhRKN8qfxK9AEJunfUjn5WH7PQzUPPQKCb59ak6fwsrwF2R' },
      { label: 'extra', id: 'extra' },
    ]);
  });

  it('reads the C-Chain and the L1 chains at the node, or at rpc_url when set', async () => {
    const http = new HttpClient({ maxResponseBytes: 1024 });
    const node = new NodeClient(http, new SelfMetrics({ version: 't', revision: 't' }), {
      target: 'node-a',
      baseUrl: target.url,
      headers: {},
      timeoutMs: 1000,
    });
    expect(evmChains(target, new EvmRpcClient(node))).toEqual([
      { label: 'C', url: 'http://127.0.0.1:9650/ext/bc/C/rpc' },
      { label: 'dfk', url: 'http://127.0.0.1:9650/ext/bc/q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi/rpc' },
      { label: 'viaurl', url: 'http://rpc.example/ext/bc/x/rpc' },
    ]);
    await http.close();
  });
});
