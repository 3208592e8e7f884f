import { Cron } from 'croner';
import type { Logger } from 'pino';

/** A unit of scheduled work: one collector on one target, or one public-API collector. */
export interface Job {
  readonly id: string;
  readonly intervalMs: number;
  run(signal: AbortSignal): Promise<void>;
}

/**
 * Runs each job once at start (so /-/ready can follow the first round), then on a croner schedule
 * whose start is spread by a per-job jitter, so a hundred targets do not fire in the same second.
 * Runs of one job never overlap: croner's `protect` plus our own in-flight check cover the first run.
 */
export class Scheduler {
  private readonly crons: Cron[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly controller = new AbortController();

  constructor(
    private readonly log: Logger,
    private readonly jitterRatio: number,
  ) {}

  /** Starts every job; resolves when each has completed its first run. */
  async start(jobs: readonly Job[]): Promise<void> {
    for (const job of jobs) {
      const intervalSeconds = Math.max(1, Math.round(job.intervalMs / 1000));
      const startAt = new Date(Date.now() + jitterMs(job.id, job.intervalMs * this.jitterRatio));
      this.crons.push(
        new Cron('* * * * * *', { interval: intervalSeconds, protect: true, startAt }, () => this.trigger(job)),
      );
    }
    await Promise.all(jobs.map((job) => this.trigger(job)));
  }

  /** Runs a job now unless it is already running; resolves when that run ends. */
  trigger(job: Job): Promise<void> {
    const running = this.inFlight.get(job.id);
    if (running) {
      this.log.debug({ job: job.id }, 'Previous run still in flight; skipping this tick');
      return running;
    }
    const run = job
      .run(this.controller.signal)
      .catch((error: unknown) => this.log.error({ job: job.id, err: error }, 'Job failed unexpectedly'))
      .finally(() => this.inFlight.delete(job.id));
    this.inFlight.set(job.id, run);
    return run;
  }

  /** Stops scheduling and waits for in-flight runs; `abort` cancels them instead of waiting. */
  async stop(options: { abort?: boolean } = {}): Promise<void> {
    for (const cron of this.crons) cron.stop();
    this.crons.length = 0;
    if (options.abort) this.controller.abort();
    await Promise.all(this.inFlight.values());
  }
}

/** A stable offset in [0, spreadMs) derived from the job id, so restarts keep the same spread. */
export function jitterMs(id: string, spreadMs: number): number {
  let hash = 2166136261;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 16777619);
  return spreadMs <= 0 ? 0 : (hash >>> 0) % Math.floor(spreadMs);
}
