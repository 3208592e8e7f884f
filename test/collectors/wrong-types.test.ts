import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createChainProgressCollector } from '../../src/collectors/chain-progress.js';
import type { Collector } from '../../src/collectors/collector.js';
import { createFeeConfigCollector } from '../../src/collectors/fee-config.js';
import { createHealthCollector } from '../../src/collectors/health.js';
import { createL1ValidatorsCollector } from '../../src/collectors/l1-validators.js';
import { createNodeInfoCollector } from '../../src/collectors/node-info.js';
import { createPeersCollector } from '../../src/collectors/peers.js';
import { createUpgradesCollector } from '../../src/collectors/upgrades.js';
import { createUptimeCollector } from '../../src/collectors/uptime.js';
import { createValidatorsCollector } from '../../src/collectors/validators/collector.js';
import { UpstreamError } from '../../src/errors.js';
import { SIM_L1 } from '../../src/simulator/chain-world.js';
import { SIM_SUBNETS_YAML, startHarness, value, type Front, type Harness } from './chain-harness.js';

/** An answer, rewritten as plain JSON. */
type Json = any;

/**
 * One field of a real-shaped answer, given another JSON type on the wire. `answer` is a JSON-RPC
 * method or a GET path; `field` is the path inside its result (or body, for GET), which the error
 * must name; as a function it picks the path from the answer, or leaves an answer alone (undefined).
 */
interface Mutation {
  readonly collector: () => Collector;
  readonly yaml?: string;
  readonly answer: string;
  readonly field: string | ((result: Json) => string | undefined);
  readonly value: unknown;
  /** A simulator step first, for a field that only some states have (a failing check's `error`). */
  readonly step?: Record<string, unknown>;
}

/** A per-chain collector: the broken chain's part fails (its up gauge says 0), not its neighbours'. */
interface ChainMutation extends Mutation {
  readonly up: string;
  readonly chain: string;
}

const WATCH_SELF = 'validators: { node_ids: [self] }';
const WITH_SUBNETS = `${WATCH_SELF}\n${SIM_SUBNETS_YAML}`;
const NETWORK_WIDE = 'validators: { node_ids: [self], network_wide: true }';

/** The first L1 validator of a getCurrentValidators answer: only the L1's answer lists a balance. */
const l1Balance = (result: Json) => {
  const index = (result.validators as Json[]).findIndex((entry) => 'balance' in entry);
  return index < 0 ? undefined : `validators[${index}].balance`;
};

const failingRuns: Mutation[] = [
  { collector: createNodeInfoCollector, answer: 'info.getNodeVersion', field: 'rpcProtocolVersion', value: 42 },
  { collector: createNodeInfoCollector, answer: 'info.getNetworkID', field: 'networkID', value: 1 },
  { collector: createNodeInfoCollector, answer: 'info.isBootstrapped', field: 'isBootstrapped', value: 'true' },
  { collector: createNodeInfoCollector, answer: 'info.getVMs', field: (result) => `vms.${Object.keys(result.vms)[0]}[0]`, value: 7 },
  { collector: createPeersCollector, answer: 'info.peers', field: 'numPeers', value: 60 },
  { collector: createPeersCollector, answer: 'info.peers', field: 'peers[5].benched[0]', value: 7 },
  { collector: createPeersCollector, answer: 'info.peers', field: 'peers[2].observedUptime', value: '98%' },
  // info.peers is read for four fields of each peer (json-projection.ts): each still has its type checked.
  { collector: createPeersCollector, answer: 'info.peers', field: 'peers[3].nodeID', value: 12 },
  { collector: createPeersCollector, answer: 'info.peers', field: 'peers[4].version', value: { major: 1 } },
  { collector: createPeersCollector, answer: 'info.peers', field: 'peers[6].benched', value: 'C' },
  { collector: createPeersCollector, answer: 'info.peers', field: 'peers', value: { 0: { nodeID: 'NodeID-x' } } },
  {
    collector: createPeersCollector,
    answer: 'platform.getValidatorsAt',
    field: (result) => Object.keys(result)[1],
    value: '2000000000000',
  },
  {
    collector: createPeersCollector,
    answer: 'platform.getValidatorsAt',
    field: (result) => `${Object.keys(result)[0]}.weight`,
    value: 2e12,
  },
  { collector: createUptimeCollector, answer: 'info.uptime', field: 'weightedAveragePercentage', value: '99.5x' },
  { collector: createUpgradesCollector, answer: 'info.upgrades', field: 'heliconTime', value: true },
  {
    collector: createUpgradesCollector,
    answer: 'info.acps',
    field: (result) => `acps.${Object.keys(result.acps)[0]}.supportWeight`,
    value: 15e16,
  },
  {
    collector: createValidatorsCollector,
    yaml: WATCH_SELF,
    answer: 'platform.getCurrentValidators',
    field: 'validators[0].weight',
    value: 2e12,
  },
  {
    collector: createValidatorsCollector,
    yaml: WATCH_SELF,
    answer: 'platform.getCurrentValidators',
    field: 'validators[0].connected',
    value: 'true',
  },
  {
    collector: createValidatorsCollector,
    yaml: WATCH_SELF,
    answer: 'platform.getCurrentValidators',
    field: 'validators[0].uptime',
    value: '99.5%',
  },
  { collector: createValidatorsCollector, yaml: WITH_SUBNETS, answer: 'platform.getCurrentValidators', field: l1Balance, value: '12x' },
  {
    collector: createValidatorsCollector,
    yaml: NETWORK_WIDE,
    answer: 'platform.getCurrentValidators',
    field: 'validators[3].weight',
    value: '0x10',
  },
  {
    collector: createValidatorsCollector,
    yaml: NETWORK_WIDE,
    answer: 'platform.getCurrentValidators',
    field: 'validators[4].startTime',
    value: ' 12 ',
  },
  {
    collector: createValidatorsCollector,
    yaml: NETWORK_WIDE,
    answer: 'platform.getCurrentValidators',
    field: 'validators[5].delegatorWeight',
    value: 25e9,
  },
  {
    collector: createValidatorsCollector,
    yaml: NETWORK_WIDE,
    answer: 'platform.getCurrentValidators',
    field: 'validators[6].nodeID',
    value: 6,
  },
  {
    collector: createValidatorsCollector,
    yaml: NETWORK_WIDE,
    answer: 'platform.getCurrentValidators',
    field: 'validators[7].connected',
    value: 1,
  },
  {
    collector: createL1ValidatorsCollector,
    yaml: WITH_SUBNETS,
    answer: 'validators.getCurrentValidators',
    field: 'validators[0].isActive',
    value: 'true',
  },
  {
    collector: createL1ValidatorsCollector,
    yaml: WITH_SUBNETS,
    answer: 'validators.getCurrentValidators',
    field: 'validators[0].uptimePercentage',
    value: '99.5x',
  },
  {
    collector: createL1ValidatorsCollector,
    yaml: WITH_SUBNETS,
    answer: 'validators.getCurrentValidators',
    field: 'validators[0].nodeID',
    value: ['NodeID-x'],
  },
  // Every chain answers eth_getChainConfig, so every chain's part fails, and with them the run.
  { collector: createFeeConfigCollector, yaml: SIM_SUBNETS_YAML, answer: 'eth_getChainConfig', field: 'chainId', value: '0xa86a' },
];

const failingChains: ChainMutation[] = [
  {
    collector: createChainProgressCollector,
    answer: 'platform.getHeight',
    field: 'height',
    value: 123,
    up: 'avaxmon_chain_up',
    chain: 'P',
  },
  {
    collector: createFeeConfigCollector,
    yaml: SIM_SUBNETS_YAML,
    answer: 'eth_feeConfig',
    field: 'feeConfig.gasLimit',
    value: '15000000x',
    up: 'avaxmon_evm_config_up',
    chain: SIM_L1.name,
  },
  {
    collector: createFeeConfigCollector,
    yaml: SIM_SUBNETS_YAML,
    answer: 'eth_getActiveRulesAt',
    field: 'avalancheRules.IsDurango',
    value: 'true',
    up: 'avaxmon_evm_config_up',
    chain: SIM_L1.name,
  },
];

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Starts the simulator behind a proxy that rewrites the mutation's field; returns the path it rewrote. */
async function startMutated(mutation: Mutation): Promise<{ harness: Harness; path: () => string }> {
  let path: string | undefined;
  const rewrite = (result: Json) => {
    const field = typeof mutation.field === 'string' ? mutation.field : mutation.field(result);
    if (field === undefined) return;
    replaceAt(result, field, mutation.value);
    path = field;
  };
  const started = await startHarness(mutation.yaml ?? '', {}, (simUrl) => rewritingProxy(simUrl, mutation.answer, rewrite));
  if (mutation.step) started.sim.apply(mutation.step);
  return { harness: started, path: () => path ?? `nothing rewritten in ${mutation.answer}` };
}

/** `^node-a <method>: <path>: expected `: the reader's error, naming the upstream, the method and the field. */
function namingField(answer: string, path: string): RegExp {
  const method = answer.startsWith('/') ? `GET ${answer}` : answer;
  return new RegExp(`^node-a ${escape(method)}: ${escape(path)}: expected `);
}

function title(mutation: Mutation): string {
  const field = typeof mutation.field === 'string' ? mutation.field : 'a keyed field';
  return `${mutation.collector().name}: ${mutation.answer} ${field} as ${JSON.stringify(mutation.value)}`;
}

describe('a field of the wrong type fails the run, naming its path', () => {
  it.each(failingRuns.map((mutation) => [title(mutation), mutation] as const))('%s', async (_, mutation) => {
    const started = await startMutated(mutation);
    harness = started.harness;
    const error = await harness.run(mutation.collector()).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).outcome).toBe('bad_body');
    expect((error as UpstreamError).message).toMatch(namingField(mutation.answer, started.path()));
  });
});

/** A side call's answer (besides the collector's main one): its part is lost, marked and logged naming the field; the run goes on. */
const sideParts: Array<Mutation & { readonly method: string; readonly kept: string }> = [
  {
    collector: createHealthCollector,
    answer: '/ext/health/readiness',
    field: 'healthy',
    value: 'true',
    method: 'GET /ext/health/readiness',
    kept: 'avaxmon_node_healthy',
  },
  {
    collector: createValidatorsCollector,
    yaml: WITH_SUBNETS,
    answer: 'platform.getValidatorFeeState',
    field: 'price',
    value: '512x',
    method: 'platform.getValidatorFeeState',
    kept: 'avaxmon_l1_validator_balance_avax',
  },
  {
    collector: createChainProgressCollector,
    answer: 'platform.getCurrentSupply',
    field: 'supply',
    value: '12x',
    method: 'platform.getCurrentSupply',
    kept: 'avaxmon_chain_height',
  },
  {
    collector: createChainProgressCollector,
    answer: 'platform.getBlockchainStatus',
    field: 'status',
    value: 1,
    method: 'platform.getBlockchainStatus',
    kept: 'avaxmon_chain_height',
  },
  {
    collector: createChainProgressCollector,
    answer: 'avm.getTxFee',
    field: 'txFee',
    value: 1e6,
    method: 'avm.getTxFee',
    kept: 'avaxmon_chain_height',
  },
];

describe('a field of the wrong type in a side call loses only its part, naming its path', () => {
  it.each(sideParts.map((mutation) => [title(mutation), mutation] as const))('%s', async (_, mutation) => {
    const started = await startMutated(mutation);
    harness = started.harness;
    const samples = await harness.run(mutation.collector());
    expect(value(samples, 'avaxmon_collector_call_up', { method: mutation.method })).toBe(0);
    expect(samples.some((sample) => sample.name === mutation.kept)).toBe(true);
    const naming = new RegExp(namingField(mutation.answer, started.path()).source.slice(1));
    expect(harness.logs.some((line) => naming.test(JSON.parse(line).reason ?? ''))).toBe(true);
  });
});

/** Health details are any JSON by contract: these are skipped and counted, and health is read regardless. */
const skippedDetails: ReadonlyArray<{ check: string; field: string; value: Json }> = [
  { check: 'network', field: 'sendFailRate', value: '12x' },
  { check: 'C', field: 'engine.consensus.longestProcessingBlock', value: 312 },
  { check: 'P', field: 'networking.disconnectedValidators', value: '3' },
  { check: 'diskspace', field: 'availableDiskPercentage', value: '42%' },
  { check: 'futureupgrade', field: 'modeUpgradeTime', value: true },
];

describe('a health detail of another type is skipped and counted; health is read regardless', () => {
  it.each(
    skippedDetails.map((detail) => [`checks.${detail.check}.message.${detail.field} as ${JSON.stringify(detail.value)}`, detail] as const),
  )('%s', async (_, detail) => {
    const started = await startMutated({
      collector: createHealthCollector,
      answer: '/ext/health',
      field: `checks.${detail.check}.message.${detail.field}`,
      value: detail.value,
    });
    harness = started.harness;
    const samples = await harness.run(createHealthCollector());
    expect(value(samples, 'avaxmon_node_healthy')).toBe(1);
    expect(value(samples, 'avaxmon_health_check_passing', { check: detail.check })).toBe(1);
    expect(value(samples, 'avaxmon_health_details_skipped_total', { check: detail.check, field: detail.field })).toBe(1);
  });

  it('a failing check whose error is not a string still fails', async () => {
    const started = await startMutated({
      collector: createHealthCollector,
      answer: '/ext/health',
      field: 'checks.router.error',
      value: 12,
      step: { fail_check: 'router' },
    });
    harness = started.harness;
    const samples = await harness.run(createHealthCollector());
    expect(value(samples, 'avaxmon_health_check_passing', { check: 'router' })).toBe(0);
    expect(value(samples, 'avaxmon_node_healthy')).toBe(0);
  });
});

describe('in a per-chain collector, a field of the wrong type fails its chain, naming its path', () => {
  it.each(failingChains.map((mutation) => [title(mutation), mutation] as const))('%s', async (_, mutation) => {
    const started = await startMutated(mutation);
    harness = started.harness;
    const samples = await harness.run(mutation.collector());
    expect(value(samples, mutation.up, { chain: mutation.chain })).toBe(0);
    const logged = harness.logs.map((line) => JSON.parse(line) as { msg: string; chain?: string; err?: { message: string } });
    const failure = logged.find((entry) => entry.chain === mutation.chain && entry.msg.startsWith('Chain failed'));
    expect(failure?.err?.message).toMatch(namingField(mutation.answer, started.path()));
  });
});

/** A loopback server in front of the simulator that rewrites the result (or GET body) of one answer. */
async function rewritingProxy(simUrl: string, answer: string, rewrite: (result: Json) => void): Promise<Front> {
  const server = createServer((request, response) => {
    relay(simUrl, request, answer, rewrite).then(
      ({ status, type, text }) => response.writeHead(status, { 'content-type': type }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function relay(
  simUrl: string,
  request: IncomingMessage,
  answer: string,
  rewrite: (result: Json) => void,
): Promise<{ status: number; type: string; text: string }> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  const upstream = await fetch(`${simUrl}${request.url}`, {
    method: request.method,
    headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
    body: request.method === 'POST' ? body : undefined,
  });
  const reply = { status: upstream.status, type: upstream.headers.get('content-type') ?? 'text/plain', text: await upstream.text() };
  const isGet = request.method === 'GET';
  const name = isGet ? new URL(request.url ?? '/', simUrl).pathname : (JSON.parse(body) as { method?: string }).method;
  if (name !== answer) return reply;
  const json = JSON.parse(reply.text) as Json;
  // A JSON-RPC error (the C-Chain has no eth_feeConfig) has no result to rewrite.
  if (isGet) rewrite(json);
  else if (json.result !== undefined) rewrite(json.result);
  return { ...reply, text: JSON.stringify(json) };
}

/** Replaces the value at a path such as `peers[5].benched[0]` (keys may hold spaces, not dots); it must exist. */
function replaceAt(root: Json, path: string, replacement: unknown): void {
  const keys = path.split('.').flatMap((part) => part.split(/\[(\d+)\]/).filter((key) => key !== ''));
  const last = keys.pop()!;
  const parent = keys.reduce((node: Json, key) => node[key], root);
  if (!(last in parent)) throw new Error(`${path} is not in the answer`);
  parent[last] = replacement;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
