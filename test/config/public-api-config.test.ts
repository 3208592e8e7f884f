import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { issuesOf } from '../helpers/config-issues.js';
import { scrubSecrets } from '../../src/config/redact.js';

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-public-api-'));
const NODE = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

/** The issue's example, as written. */
function issueExample(keyFile: string): string {
  return `
metrics_api:
  url: https://metrics.avax.network
  interval: 1h
  chains: [43114, total]
  metrics: [txCount, activeAddresses, gasUsed, feesPaid, avgTps, maxTps, cumulativeTxCount]
  time_interval: day
data_api:
  url: https://glacier-api.avax.network
  api_key_file: ${keyFile}
  network: mainnet
  interval: 10m
  delegators: { node_ids: [${NODE}] }
  balances:
    - { chain_id: "43114", address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", name: relayer-hot-wallet }
`;
}

describe('public API config', () => {
  it('accepts the documented keys, reads the key file and registers the key as a secret', () => {
    const keyFile = join(dir, 'data-api-key');
    writeFileSync(keyFile, 'file-key-abcdef\n');
    const config = parseConfig(issueExample(keyFile));
    expect(config.metrics_api).toMatchObject({ interval: 3_600_000, chains: ['43114', 'total'], time_interval: 'day' });
    expect(config.metrics_api!.metrics[4]).toEqual({ name: 'avgTps', interval: 'day' });
    expect(config.data_api).toMatchObject({
      api_key: 'file-key-abcdef',
      interval: 600_000,
      max_requests_per_run: 200,
      request_spacing: 100,
    });
    expect(config.data_api!.balances[0]).toEqual({
      chain_id: '43114',
      address: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC',
      name: 'relayer-hot-wallet',
    });
    expect(scrubSecrets('key=file-key-abcdef')).toBe('key=<redacted>');
  });

  it('reads the key from the environment, and gives a keyless client lower limits', () => {
    const keyed = parseConfig(`data_api: { api_key: "\${AVAX_DATA_API_KEY}", balances: [] }`, {
      env: { AVAX_DATA_API_KEY: 'env-key-123456' },
    });
    expect(keyed.data_api!.api_key).toBe('env-key-123456');
    expect(scrubSecrets('env-key-123456')).toBe('<redacted>');
    const keyless = parseConfig(`data_api: { balances: [] }`);
    expect(keyless.data_api).toMatchObject({ api_key: undefined, max_requests_per_run: 50, request_spacing: 1000 });
  });

  it('rejects metric and time_interval combinations the API does not serve, naming each path', () => {
    const issues = issuesOf(`
metrics_api:
  chains: [43114]
  metrics: [txCount, activeAddresses, avgTps, cumulativeTxCount, { name: deployers, time_interval: month }, { name: gasUsed, time_interval: day }, maxGasPrice, contracts]
  time_interval: hour
`);
    expect(issues).toEqual([
      'metrics_api.metrics[2]: avgTps supports only time_interval day (got hour)',
      'metrics_api.metrics[3]: cumulativeTxCount supports only time_interval day (got hour)',
      'metrics_api.metrics[4]: deployers supports only time_interval day (got month)',
      'metrics_api.metrics[6]: maxGasPrice supports only time_interval day (got hour)',
      'metrics_api.metrics[7]: contracts supports only time_interval day (got hour)',
    ]);
  });

  it('rejects unknown metrics, bad chains, addresses, node ids and key settings', () => {
    const issues = issuesOf(`
metrics_api: { chains: [43114, avalanche, -1], metrics: [tps], time_interval: minute }
data_api:
  api_key: abcdef
  api_key_file: /nonexistent
  network: devnet
  delegators: { node_ids: [NodeID-x], statuses: [slashed] }
  balances:
    - { chain_id: "43114", address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52F", name: short }
    - { chain_id: "43114", address: "8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC00", name: no-prefix }
    - { chain_id: "C", address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", name: alias }
`);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^metrics_api\.chains\[1\]: must be a positive decimal EVM chain id/),
        expect.stringMatching(/^metrics_api\.chains\[2\]: must be a positive decimal EVM chain id/),
        expect.stringMatching(/^metrics_api\.time_interval: must be one of hour, day, week, month/),
        expect.stringMatching(/^metrics_api\.metrics\[0\]: unknown metric "tps"/),
        expect.stringMatching(/^data_api\.network: /),
        'data_api.delegators.node_ids[0]: must be a NodeID-... id',
        expect.stringMatching(/^data_api\.delegators\.statuses\[0\]: /),
        'data_api.balances[0].address: must be an EVM address: 0x followed by 40 hex digits',
        'data_api.balances[1].address: must be an EVM address: 0x followed by 40 hex digits',
        'data_api.balances[2].chain_id: must be a positive decimal EVM chain id such as 43114',
        'data_api.api_key_file: set api_key or api_key_file, not both',
      ]),
    );
    expect(issuesOf(`data_api: { api_key_file: ${join(dir, 'missing')} }`)).toEqual([
      `data_api.api_key_file: cannot read secret file ${join(dir, 'missing')}: ENOENT`,
    ]);
  });

  describe('check-config', () => {
    // Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
    const main = new URL('../../dist/main.js', import.meta.url).pathname;

    it('exits 2 and names the bad metric/interval combination and the bad address', () => {
      const file = join(dir, 'bad.yaml');
      writeFileSync(
        file,
        `
metrics_api: { chains: [43114], metrics: [txCount, activeAddresses, avgTps], time_interval: hour }
data_api:
  balances: [{ chain_id: "43114", address: "0xZZ", name: wallet }]
`,
      );
      const result = spawnSync(process.execPath, [main, 'check-config', file], { encoding: 'utf8' });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('metrics_api.metrics[2]: avgTps supports only time_interval day');
      expect(result.stderr).toContain('data_api.balances[0].address: must be an EVM address');
    });

    it('exits 0 on the documented example', () => {
      const keyFile = join(dir, 'key-for-cli');
      writeFileSync(keyFile, 'cli-key-123456');
      const file = join(dir, 'good.yaml');
      writeFileSync(file, issueExample(keyFile));
      const result = spawnSync(process.execPath, [main, 'check-config', file], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    });
  });
});
