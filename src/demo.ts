// First: refuses an unsupported Node.js before the demo starts collectors that need a newer one.
import './runtime/require-node.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METRICS_API_METRICS } from './clients/metrics-api.js';
import { parseConfig } from './config/load.js';
import { Daemon } from './daemon/daemon.js';
import { startWebhookSink } from './simulator/demo-webhook-sink.js';
import { createLogger } from './runtime/log.js';
import { primaryValidator, SIM_L1, SIM_SUBNET } from './simulator/chain-world.js';
import { loadScenario, speedUp } from './simulator/scenario.js';
import { startSimulator } from './simulator/server.js';

/** The simulator's auto-renewed validator (ACP-236), watched beside the node itself. */
const RENEWING_VALIDATOR = primaryValidator(2, 0).nodeId;

/**
 * `AVAXMON_DEMO_SPEED=4` plays the demo 4 times faster (1 to 5): the scenario, the collection interval
 * and the alert grouping times, so a test sees the whole story in seconds.
 */
function demoSpeed(): number {
  const speed = Number(process.env.AVAXMON_DEMO_SPEED ?? 1);
  if (!(speed >= 1 && speed <= 5)) {
    process.stderr.write(`demo: AVAXMON_DEMO_SPEED must be a number from 1 to 5 (got "${process.env.AVAXMON_DEMO_SPEED}")\n`);
    process.exit(1);
  }
  return speed;
}

/**
 * `npm run demo`: the simulator playing the demo scenario, the daemon scraping it every 5s, and a
 * webhook sink printing the alerts the scripted health flips fire and resolve. Everything listens on
 * loopback; the printed URL shows live values within one collection round. The Metrics API is asked
 * for every metric, so the dashboards' chain-activity panels have data too.
 */
async function demo(): Promise<void> {
  const speed = demoSpeed();
  const intervalMs = Math.round(5_000 / speed);
  const simulator = await startSimulator({ scenario: speedUp(loadScenario('demo'), speed), peers: 60 });
  const sink = await startWebhookSink((line) => process.stdout.write(`${line}\n`));
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-demo-'));
  const config = parseConfig(`
global: { interval: ${intervalMs}ms, timeout: ${Math.min(2_000, intervalMs)}ms }
targets:
  - name: demo-node
    url: ${simulator.url}
    health_tags: ["11111111111111111111111111111111LpoYY"]
    validators: { node_ids: [self, ${RENEWING_VALIDATOR}], network_wide: true }
    subnets:
      - { name: ${SIM_SUBNET.name}, subnet_id: ${SIM_SUBNET.subnetId} }
      - { name: ${SIM_L1.name}, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${SIM_L1.blockchainId} }
# The public APIs are the local simulator here: no rate limit to respect, so no spacing between
# requests, and the first round (node metrics, then the public APIs) is complete within about a second.
metrics_api: { url: ${simulator.url}, interval: 1m, request_spacing: 0s, chains: [43114, total], metrics: [${METRICS_API_METRICS.join(', ')}] }
data_api:
  url: ${simulator.url}
  interval: 1m
  request_spacing: 0s
  delegators: { node_ids: [${simulator.state.nodeId}] }
  balances: [{ chain_id: "43114", address: "0x1111111111111111111111111111111111111111", name: relayer-hot-wallet }]
alerts:
  state_dir: ${stateDir}
  group_wait: ${Math.round(1_000 / speed)}ms
  group_interval: ${Math.round(10_000 / speed)}ms
  rules:
    # The scenario's flips last seconds; fire them at once so they show.
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { for: 0s }
    AvalanchePeersLow: { for: 0s }
  receivers:
    - { name: demo-sink, type: webhook, url: ${sink.url} }
`);
  const daemon = new Daemon({ config, logger: createLogger(process.env.AVAXMON_DEMO_LOG_LEVEL === 'debug' ? 'debug' : 'warn') });
  const port = Number(process.env.AVAXMON_DEMO_PORT ?? 9683);
  try {
    await daemon.app.listen({ host: '127.0.0.1', port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    process.stderr.write(`demo: port ${port} is in use; run it on another with AVAXMON_DEMO_PORT=19683 npm run demo\n`);
    process.exit(1);
  }
  process.stdout.write(`simulator:  ${simulator.url}\n`);
  process.stdout.write(`status:     http://127.0.0.1:${port}/\n`);
  process.stdout.write(`metrics:    http://127.0.0.1:${port}/metrics\n`);
  process.stdout.write(`alerts:     a webhook sink at ${sink.url} prints each notification below\n`);
  await daemon.start();
  process.stdout.write(
    `first collection round complete (the node, then the Metrics and Data APIs); values change every ${intervalMs / 1000}s (Ctrl-C to stop)\n`,
  );
  const stop = async () => {
    await daemon.app.close();
    await daemon.stop();
    await simulator.close();
    sink.server.close();
    rmSync(stateDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void demo();
