import type { NodeClient } from '../clients/avalanchego.js';
import type { TargetConfig } from '../config/schema.js';
import type { MetricDesc, Sample } from '../metrics/metric-desc.js';
import type { SliceLog } from './slice-log.js';

/** What a node collector gets for one run. */
export interface CollectContext {
  readonly target: TargetConfig;
  readonly node: NodeClient;
  readonly log: SliceLog;
  readonly signal: AbortSignal;
  /** Wall-clock time of the run's start, in milliseconds. */
  readonly nowMs: number;
  /** Survives between runs of this collector on this target (e.g. the last chain heights). */
  readonly memory: Map<string, unknown>;
  /** Facts shared by the collectors of one target. */
  readonly facts: TargetFacts;
}

export interface TargetFacts {
  /** This node's id from info.getNodeID, once known; `self` in validators.node_ids resolves to it. */
  nodeId?: string;
  /** Node-specific methods the node refused, so the refusal is logged once, not every run. */
  readonly unavailableMethods: Set<string>;
  /** The primary network's weights by node id (validator-weights.ts), one copy for the peers and validators collectors. */
  validatorWeights?: { readonly fetchedAtMs: number; readonly weights: ReadonlyMap<string, number> };
  /** This node's uptime as the deciding share of its validator peers saw it at the peers collector's last run (deciding-view.ts). */
  decidingUptime?: { readonly atMs: number; readonly ratio?: number };
}

/** Facts of one run: every series of the collector, replacing its previous slice whole. */
export interface Observation {
  readonly samples: Sample[];
}

/** Modeled on node_exporter's Collector: a name, the metrics it may export, and one collect call. */
export interface Collector {
  readonly name: string;
  /** One module-level list shared by every instance: a 1,000-node fleet makes one collector of each kind per node. */
  readonly metrics: readonly MetricDesc[];
  /** Throws on failure; never returns a partial observation. */
  collect(ctx: CollectContext): Promise<Observation>;
}

export interface CollectorFactory {
  readonly defaultEnabled: boolean;
  /** How often it runs unless the config says otherwise: as often as its data changes. */
  readonly defaultIntervalMs: number;
  readonly create: () => Collector;
}

/** Builds samples that all carry the same base labels (usually `target`). */
export class SampleSet {
  readonly samples: Sample[] = [];

  constructor(private readonly base: Readonly<Record<string, string>>) {}

  add(name: string, labels: Readonly<Record<string, string>>, value: number | boolean): void {
    // Into `{}`, which has room for four labels in the object itself: a spread puts the second
    // object's labels in a properties array of their own, one object more per sample kept.
    const merged = Object.assign({}, this.base, labels);
    this.samples.push({ name, labels: merged, value: typeof value === 'boolean' ? Number(value) : value });
  }

  observation(): Observation {
    return { samples: this.samples };
  }
}
