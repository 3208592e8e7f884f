import { NodeClient } from '../../src/clients/avalanchego.js';
import { HttpClient } from '../../src/clients/http.js';
import type { Collector, TargetFacts } from '../../src/collectors/collector.js';
import { parseConfig } from '../../src/config/load.js';
import type { TargetConfig } from '../../src/config/schema.js';
import { createLogger } from '../../src/runtime/log.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { SelfMetrics } from '../../src/metrics/self-metrics.js';
import { SIM_L1, SIM_SUBNET } from '../../src/simulator/chain-world.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import { captureStream } from '../helpers/stack.js';

/** Both simulated subnets, as a target's `subnets:` YAML. */
export const SIM_SUBNETS_YAML = `subnets:
  - { name: ${SIM_SUBNET.name}, subnet_id: ${SIM_SUBNET.subnetId} }
  - { name: ${SIM_L1.name}, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${SIM_L1.blockchainId} }`;

/** A loopback server put between the collectors and the simulator. */
export interface Front {
  readonly url: string;
  close(): Promise<void>;
}

export interface Harness {
  readonly sim: Simulator;
  readonly target: TargetConfig;
  readonly self: SelfMetrics;
  readonly logs: string[];
  /** The target's facts, kept across runs (what one collector leaves for another). */
  readonly facts: TargetFacts;
  /** Runs the collector once over real HTTP, with memory and facts kept across runs. */
  run(collector: Collector, nowMs?: number): Promise<Sample[]>;
  close(): Promise<void>;
}

/** A simulator and one target's collector context, for running collectors directly. */
/** `targetYaml` may depend on the simulator's URL (for rpc_url); `front`, given the simulator's URL, starts a server the target's url points to. */
export async function startHarness(
  targetYaml: string | ((simUrl: string) => string),
  sim: SimulatorOptions = {},
  front?: (simUrl: string) => Promise<Front>,
): Promise<Harness> {
  const simulator = await startSimulator(sim);
  const proxy = await front?.(simulator.url);
  const yaml = typeof targetYaml === 'string' ? targetYaml : targetYaml(simulator.url);
  const config = parseConfig(`targets:\n  - name: node-a\n    url: ${proxy?.url ?? simulator.url}\n${yaml.replace(/^/gm, '    ')}\n`);
  const target = config.targets[0];
  const http = new HttpClient({ maxResponseBytes: 32 * 1024 * 1024 });
  const self = new SelfMetrics({ version: 'test', revision: 'test' });
  const node = new NodeClient(http, self, { target: target.name, baseUrl: target.url, headers: {}, timeoutMs: 5000 });
  const logs: string[] = [];
  const log = createLogger('debug', 'json', captureStream(logs));
  const facts: TargetFacts = { unavailableMethods: new Set() };
  const memories = new Map<string, Map<string, unknown>>();
  return {
    sim: simulator,
    target,
    self,
    logs,
    facts,
    async run(collector, nowMs = Date.now()) {
      if (!memories.has(collector.name)) memories.set(collector.name, new Map());
      const memory = memories.get(collector.name)!;
      const observation = await collector.collect({ target, node, log, signal: new AbortController().signal, nowMs, memory, facts });
      const known = new Set(collector.metrics.map((desc) => desc.name));
      for (const sample of observation.samples)
        if (!known.has(sample.name)) throw new Error(`${collector.name} exported ${sample.name} outside its metrics`);
      return observation.samples;
    },
    async close() {
      await http.close();
      await proxy?.close();
      await simulator.close();
    },
  };
}

export function series(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

/** The value of exactly one series; undefined when absent. */
export function value(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const matches = series(samples, name, labels);
  if (matches.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${matches.length} series`);
  return matches[0]?.value;
}

/** Requests the collector made, by method and outcome, from the self-metrics. */
export function requestCount(self: SelfMetrics, method: string, outcome = 'success'): number {
  return self
    .samples()
    .filter(
      (sample) => sample.name === 'avaxmon_rpc_requests_total' && sample.labels.method === method && sample.labels.outcome === outcome,
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}
