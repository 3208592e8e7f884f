import type { Sample } from '../metrics/metric-desc.js';

/** A finished probe is served again this long: Prometheus HA pairs and retries then cost one run. */
export const PROBE_REUSE_MS = 1_000;

export class ProbeBusyError extends Error {}

interface Run {
  readonly key: string;
  readonly result: Promise<Sample[]>;
  finishedAtMs?: number;
}

/**
 * Bounds what GET /probe can make the daemon do, since each probe fans out into every collector of a
 * target (about 30 upstream requests): concurrent probes of one target share one run, a run that
 * finished less than PROBE_REUSE_MS ago is served again, and past `maxConcurrent` distinct runs a
 * probe is refused (429) instead of queued.
 */
export class ProbeGate {
  private readonly inFlight = new Map<string, Run>();
  private readonly recent = new Map<string, Run>();

  constructor(
    private readonly maxConcurrent: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The samples of a run of `key`: a shared or recent one, or a new one from `start`. */
  probe(key: string, start: () => Promise<Sample[]>): Promise<Sample[]> {
    const shared = this.inFlight.get(key) ?? this.reusable(key);
    if (shared) return shared.result;
    if (this.inFlight.size >= this.maxConcurrent)
      throw new ProbeBusyError(`${this.maxConcurrent} probes are already running (probe.max_concurrent); retry later`);
    const run: Run = { key, result: start() };
    this.inFlight.set(key, run);
    void run.result.then(
      () => this.finish(run, true),
      () => this.finish(run, false),
    );
    return run.result;
  }

  private reusable(key: string): Run | undefined {
    const run = this.recent.get(key);
    if (run && this.now() - run.finishedAtMs! < PROBE_REUSE_MS) return run;
    this.recent.delete(key);
    return undefined;
  }

  private finish(run: Run, ok: boolean): void {
    this.inFlight.delete(run.key);
    if (!ok) return;
    run.finishedAtMs = this.now();
    this.recent.set(run.key, run);
    // Only runs still reusable are worth keeping: the map stays as small as the recent traffic.
    for (const [key, old] of this.recent) if (this.now() - old.finishedAtMs! >= PROBE_REUSE_MS) this.recent.delete(key);
  }
}
