import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { SavedFlapState } from '../dispatch/flap/flap-damper.js';
import type { AlertRecord } from '../evaluation/alert-record.js';
import { writeFileDurably } from './durable-file.js';
import { WriteFailures } from './write-failures.js';

/** What survives a restart: the open alerts (with what dispatch noted on them) and the flap damper's memory. */
export interface SavedAlertState extends SavedFlapState {
  readonly alerts: readonly AlertRecord[];
}

const STATE_VERSION = 1;
const EMPTY: SavedAlertState = { alerts: [], transitions: {} };

/** The open alerts and the flap damper's memory in `<state_dir>/alerts.json`, so a restart neither re-announces nor forgets. */
export class AlertStateStore {
  private readonly file: string;
  private lastWritten = '';

  constructor(
    stateDir: string,
    private readonly log: Logger,
    private readonly failures = new WriteFailures(log),
  ) {
    mkdirSync(stateDir, { recursive: true });
    this.file = join(stateDir, 'alerts.json');
  }

  load(): SavedAlertState {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY;
      throw error;
    }
    try {
      const state = JSON.parse(text) as SavedAlertState & { version: number };
      if (state.version !== STATE_VERSION) throw new Error(`unknown state version ${state.version}`);
      this.lastWritten = text;
      return { alerts: state.alerts, transitions: state.transitions ?? {}, flapping: state.flapping ?? {} };
    } catch (error) {
      this.log.error({ file: this.file, err: error }, 'Alert state unreadable; starting with no alerts');
      return EMPTY;
    }
  }

  /**
   * Writes only when something changed: most evaluations change nothing. A failed write keeps the
   * state in memory (evaluation goes on) and is retried at the next change or evaluation.
   */
  save(state: SavedAlertState): void {
    const text = JSON.stringify({ version: STATE_VERSION, ...state });
    if (text === this.lastWritten) return;
    try {
      writeFileDurably(this.file, text);
    } catch (error) {
      this.failures.failed('alerts', error);
      return;
    }
    this.failures.succeeded('alerts');
    this.lastWritten = text;
  }
}
