import { Cron } from 'croner';
import type { Logger } from 'pino';

const FIRST_RUN_SPREAD_MS = 5_000;
// First runs start about this often (25 a second): one node's collectors are ready within a few
// hundred milliseconds, a hundred targets spread over seconds, a large fleet over FIRST_RUN_SPREAD_MS.
const FIRST_RUN_MS_PER_JOB = 40;

/** A unit of scheduled work: one collector on one target, or one public-API collector. */
export interface Job {
  readonly id: string;
  readonly intervalMs: number;
  run(signal: AbortSignal): Promise<void>;
}

/**
 * Runs each job once at start (so /-/ready can follow the first round), then on a croner schedule.
 * A per-job jitter spreads jobs apart, so a hundred targets do not fire in the same second. Runs of
 * one job never overlap: croner's `protect` plus our own in-flight check.
 */
export class Scheduler {
  private readonly crons: Cron[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly controller = new AbortController();
  private stopped = false;

  constructor(
    private readonly log: Logger,
    private readonly jitterRatio: number,
  ) {}

  /**
   * Starts every job; resolves when each has completed its first run. Each job gets a stable offset
   * (at most FIRST_RUN_SPREAD_MS, and less for a small fleet, so readiness does not wait a whole
   * interval): its first run happens then, and its croner schedule starts one interval later.
   */
  async start(jobs: readonly Job[]): Promise<void> {
    const spreadMs = Math.min(FIRST_RUN_SPREAD_MS, jobs.length * FIRST_RUN_MS_PER_JOB);
    await Promise.all(jobs.map((job) => this.startJob(job, spreadMs)));
  }

  private async startJob(job: Job, firstRunSpreadMs: number): Promise<void> {
    const offsetMs = jitterMs(job.id, Math.min(job.intervalMs * this.jitterRatio, firstRunSpreadMs));
    const intervalSeconds = Math.max(1, Math.round(job.intervalMs / 1000));
    const startAt = new Date(Date.now() + offsetMs + job.intervalMs);
    this.crons.push(new Cron('* * * * * *', { interval: intervalSeconds, protect: true, startAt }, () => this.trigger(job)));
    await new Promise((resolve) => setTimeout(resolve, offsetMs));
    if (!this.stopped) await this.trigger(job);
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

  /** Stops scheduling; in-flight runs get `graceMs` to finish, then are cancelled and awaited. */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    this.stopped = true;
    for (const cron of this.crons) cron.stop();
    this.crons.length = 0;
    const inFlight = Promise.all(this.inFlight.values());
    if (options.graceMs !== undefined) {
      const grace = new Promise((resolve) => setTimeout(resolve, options.graceMs).unref());
      await Promise.race([inFlight, grace]);
      this.controller.abort();
    }
    await inFlight;
  }
}

/** A stable offset in [0, spreadMs) derived from the job id, so restarts keep the same spread. */
export function jitterMs(id: string, spreadMs: number): number {
  let hash = 2166136261;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 16777619);
  const whole = Math.floor(spreadMs);
  return whole <= 0 ? 0 : (hash >>> 0) % whole;
}
