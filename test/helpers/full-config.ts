import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METRICS_API_METRICS } from '../../src/clients/metrics-api.js';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { primaryValidator, SIM_L1, SIM_SUBNET } from '../../src/simulator/chain-world.js';

const DELEGATED_NODE = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const WALLET = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
/** The simulator's auto-renewed validator (ACP-236), watched as another node: view="target" series. */
const RENEWING_NODE = primaryValidator(2, 0).nodeId;

/**
 * A config that turns on everything the dashboards show, against one simulator, at 1s intervals:
 * two targets (node-b is the same simulated node under a second name), every node collector, the
 * node itself and an auto-renewed validator watched, the network-wide view, a permissioned subnet and an L1, the Metrics API and
 * the Data API, and the built-in alert engine with a webhook receiver.
 */
export function fullConfig(simUrl: string, options: { webhookUrl?: string } = {}): Config {
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-state-'));
  const target = (name: string) => `
  - name: ${name}
    url: ${simUrl}
    health_tags: ["11111111111111111111111111111111LpoYY"]
    validators: { node_ids: [self, ${RENEWING_NODE}], network_wide: true }
    subnets:
      - { name: ${SIM_SUBNET.name}, subnet_id: ${SIM_SUBNET.subnetId} }
      - { name: ${SIM_L1.name}, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${SIM_L1.blockchainId} }`;
  return parseConfig(`
# 2s, not 1s: two targets with network-wide validators time out at 800ms on a loaded CI machine;
# the timeout as long as the interval allows, for a machine with a CPU hog beside the tests.
global: { interval: 2s, timeout: 2s }
targets:${target('node-a')}${target('node-b')}
metrics_api:
  url: ${simUrl}
  # Every metric of two chains, with paging, takes longer than a second, so the public APIs get 5s.
  interval: 5s
  timeout: 5s
  chains: [43114, total]
  metrics: [${METRICS_API_METRICS.join(', ')}]
  request_spacing: 0s
data_api:
  url: ${simUrl}
  interval: 5s
  timeout: 5s
  request_spacing: 0s
  delegators: { node_ids: [${DELEGATED_NODE}] }
  balances:
    - { chain_id: "43114", address: "${WALLET}", name: relayer-hot-wallet }
alerts:
  state_dir: ${stateDir}
  group_wait: 0s      # these tests follow single alerts, not grouping delays
  group_interval: 0s
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
  receivers:
${options.webhookUrl ? `    - { name: ops-webhook, type: webhook, url: ${options.webhookUrl} }` : '    []'}
`);
}
