import { NodeClient, type RequestRecorder } from '../clients/avalanchego.js';
import type { HttpClient } from '../clients/http.js';
import type { Config, TargetConfig } from '../config/schema.js';
import { collectorRegistry, type CollectorRegistry } from '../collectors/index.js';
import type { CollectorRuntime } from '../collectors/run-collector.js';
import type { Collector, TargetFacts } from '../collectors/collector.js';

/** Per-target state that outlives a reload when the target's name and URL stay the same. */
interface TargetMemory {
  readonly url: string;
  readonly facts: TargetFacts;
  readonly memories: Map<string, Map<string, unknown>>;
}

/** Builds the collector runtimes of every configured target, keeping memory across reloads. */
export class TargetRuntimes {
  private readonly memory = new Map<string, TargetMemory>();
  private readonly instances = new Map<string, Collector>();

  constructor(
    private readonly http: HttpClient,
    private readonly recorder: RequestRecorder,
    private readonly collectors: CollectorRegistry = collectorRegistry,
  ) {}

  build(config: Config): CollectorRuntime[] {
    this.forgetRemoved(config);
    return config.targets.flatMap((target) => this.forTarget(target, config));
  }

  /**
   * One client per target and timeout, and one collector per kind, shared by the runs that can
   * share them: at 1,000 targets, one of each per runtime held 9,000 clients and 9,000 collectors.
   */
  forTarget(target: TargetConfig, config: Config, timeoutOverrideMs?: number): CollectorRuntime[] {
    const memory = this.memoryOf(target);
    const clients = new Map<number, NodeClient>();
    const clientFor = (timeoutMs: number) => {
      let client = clients.get(timeoutMs);
      if (!client) {
        client = new NodeClient(this.http, this.recorder, { target: target.name, baseUrl: target.url, headers: target.headers, timeoutMs });
        clients.set(timeoutMs, client);
      }
      return client;
    };
    return enabledCollectors(target, this.collectors).map((name) => {
      const override = target.collectors[name] ?? {};
      const timeoutMs = timeoutOverrideMs ?? override.timeout ?? config.global.timeout;
      if (!memory.memories.has(name)) memory.memories.set(name, new Map());
      return {
        collector: this.collectorOf(name),
        target,
        node: clientFor(timeoutMs),
        facts: memory.facts,
        memory: memory.memories.get(name)!,
        intervalMs: timeoutOverrideMs ?? override.interval ?? config.global.interval ?? this.collectors.get(name)!.defaultIntervalMs,
      };
    });
  }

  /** Collectors keep nothing between runs of their own (that is the runtime's memory), so one serves every target. */
  private collectorOf(name: string): Collector {
    let collector = this.instances.get(name);
    if (!collector) this.instances.set(name, (collector = this.collectors.get(name)!.create()));
    return collector;
  }

  private memoryOf(target: TargetConfig): TargetMemory {
    let memory = this.memory.get(target.name);
    if (!memory || memory.url !== target.url) {
      memory = { url: target.url, facts: { unavailableMethods: new Set() }, memories: new Map() };
      this.memory.set(target.name, memory);
    }
    return memory;
  }

  private forgetRemoved(config: Config): void {
    const names = new Set(config.targets.map((target) => target.name));
    for (const name of this.memory.keys()) if (!names.has(name)) this.memory.delete(name);
  }
}

export function enabledCollectors(target: TargetConfig, collectors: CollectorRegistry = collectorRegistry): string[] {
  return [...collectors].filter(([name, factory]) => target.collectors[name]?.enabled ?? factory.defaultEnabled).map(([name]) => name);
}
