import type { Logger } from 'pino';
import type { AlertPlane } from '../alerts/alert-plane.js';
import type { ResponseMemory } from '../clients/response-memory.js';
import type { Clock } from '../schedule/clock.js';
import type { CollectorRegistry } from '../collectors/index.js';
import type { Config } from '../config/schema.js';
import type { MetricsSnapshot } from '../metrics/snapshot.js';
import type { SelfMetrics } from '../metrics/self-metrics.js';

/** Who the status page is rendered for. */
export interface StatusView {
  /** Upstream and receiver error texts are shown; otherwise only that something failed. */
  readonly detailed: boolean;
}

/** An error text as a reader may see it: whole (secrets scrubbed) for a trusted reader, else only that it failed. */
export function errorForView(error: string | undefined, view: StatusView, scrub: (text: string) => string): string {
  if (!error) return '';
  return view.detailed ? scrub(error) : 'failed (details for loopback or authenticated clients)';
}

/** The last outcome of one scheduled collector, for the status page. */
export interface CollectorState {
  readonly target: string;
  readonly collector: string;
  readonly intervalMs: number;
  lastError?: string;
}

/**
 * What the HTTP endpoints read from the daemon. The server depends on this, not on the Daemon
 * class, so the daemon builds the app without the two importing each other.
 */
export interface DaemonView {
  readonly config: Config;
  readonly log: Logger;
  readonly snapshot: MetricsSnapshot;
  readonly self: SelfMetrics;
  readonly collectorStates: ReadonlyMap<string, CollectorState>;
  /** What /probe runs and draws on: the same collectors and body budget as scheduled collection. */
  readonly collectorRegistry: CollectorRegistry;
  readonly responseMemory: ResponseMemory;
  /** What the daemon's timers and times run on: the auth cache and failure windows read it too. */
  readonly clock: Clock;
  /** The alert plane, while the config has an `alerts:` section (silences, the Alertmanager API). */
  readonly alerting: AlertPlane | undefined;
  /** Extra sections of the status page (alerts, receivers), each rendering escaped HTML. */
  readonly statusSections: ReadonlyArray<(view: StatusView) => string>;
  isReady(): boolean;
  /** Succeeding collectors whose data is older than two of their intervals: collection is behind. */
  laggingCollectors(): number;
  notReadyReason(): string;
  reload(): Promise<{ ok: boolean; errors: string[] }>;
}
