import type { Logger } from 'pino';
import { LabelledCounter } from '../../metrics/labelled-counter.js';

/** The files of state_dir whose writes are counted: the outbox entries, the delivered journal, the alert state, the silences, the notification log. */
export type StateFile = 'outbox' | 'journal' | 'alerts' | 'silences' | 'nflog';

/**
 * Counts failed writes to state_dir and logs them once per burst: a full disk fails every write of
 * every cycle, and one line per failure would bury the log (and fill whatever disk the log is on).
 */
export class WriteFailures {
  readonly errors = new LabelledCounter('avaxmon_state_dir_write_errors_total', ['file']);
  private readonly failing = new Map<StateFile, number>();

  constructor(private readonly log: Logger) {}

  failed(file: StateFile, error: unknown): void {
    this.errors.add({ file });
    const count = this.failing.get(file);
    if (count === undefined)
      this.log.error({ file, err: error }, 'Cannot write to state_dir; keeping state in memory until writes succeed again');
    this.failing.set(file, (count ?? 0) + 1);
  }

  succeeded(file: StateFile): void {
    const count = this.failing.get(file);
    if (count === undefined) return;
    this.failing.delete(file);
    this.log.warn({ file, failedWrites: count }, 'Writes to state_dir succeed again');
  }
}
