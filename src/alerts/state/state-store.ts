import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AlertRecord, AlertStatus } from '../evaluation/alert-record.js';

/** Dispatch's verdicts, which `alerts.json` kept on each alert until they moved to the notification log. */
interface LegacyVerdicts {
  readonly held?: AlertStatus;
  readonly muted?: string;
}

/**
 * What older files kept beside evaluation's alerts: in version 1, whom each was notified to and the
 * flap damper's memory; in versions 1 and 2 as the version before wrote them, dispatch's verdicts
 * (a flap hold, the muting). They are the notification log's now; a start hands them over to it.
 */
export interface LegacyNotificationState {
  readonly alerts: Readonly<
    Record<string, LegacyVerdicts & { readonly receivers?: Readonly<Record<string, number>>; readonly reminders?: number }>
  >;
  readonly transitions?: Readonly<Record<string, readonly number[]>>;
  readonly flapping?: Readonly<Record<string, { readonly sinceMs: number; lastChangeMs: number }>>;
}

/** What survives a restart of evaluation: the open alerts. */
export interface SavedAlertState {
  readonly alerts: readonly AlertRecord[];
  /** Found in a state_dir written by an older version: file version 1, or 2 with dispatch's verdicts on its alerts. */
  readonly legacy?: LegacyNotificationState;
}

/**
 * Version 1 also held what dispatch notified (on each alert, and the flap damper's memory). Version 2
 * as first written also carried dispatch's verdicts on each alert; the format is otherwise the same.
 */
const STATE_VERSION = 2;
const EMPTY: SavedAlertState = { alerts: [] };

type StoredAlert = AlertRecord & LegacyVerdicts & { notified?: Record<string, number>; reminders?: number };
interface StoredState {
  readonly version: number;
  readonly alerts: readonly StoredAlert[];
  readonly transitions?: LegacyNotificationState['transitions'];
  readonly flapping?: LegacyNotificationState['flapping'];
}

/**
 * Evaluation's open alerts in `<state_dir>/alerts.json`, so a restart neither re-announces nor
 * forgets: read here at a start, written through OrderedStateWrites (before the notification log).
 */
export class AlertStateStore {
  readonly file: string;
  /** The file as read at the start when it needs no rewrite: written again only once it differs. */
  loadedText?: string;

  constructor(
    stateDir: string,
    private readonly log: Logger,
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
      const state = JSON.parse(text) as StoredState;
      if (state.version === STATE_VERSION && !state.alerts.some(hasVerdicts)) {
        this.loadedText = text;
        return { alerts: state.alerts };
      }
      if (state.version === STATE_VERSION) return withoutVerdicts(state);
      if (state.version === 1) return fromVersion1(state);
      throw new Error(`unknown state version ${state.version}`);
    } catch (error) {
      this.log.error({ file: this.file, err: error }, 'Alert state unreadable; starting with no alerts');
      return EMPTY;
    }
  }

  /** The file's content for these alerts. */
  content(alerts: readonly AlertRecord[]): string {
    return JSON.stringify({ version: STATE_VERSION, alerts });
  }
}

function hasVerdicts(alert: StoredAlert): boolean {
  return alert.held !== undefined || alert.muted !== undefined;
}

/** Version 2 as written before dispatch's verdicts left the alerts: the alerts without them, which are handed over. */
function withoutVerdicts(state: StoredState): SavedAlertState {
  const verdicts: Record<string, LegacyVerdicts> = {};
  const alerts = state.alerts.map(({ held, muted, ...alert }) => {
    verdicts[alert.fingerprint] = { held, muted };
    return alert;
  });
  return { alerts, legacy: { alerts: verdicts } };
}

/** The alerts without what dispatch noted on them, which is handed over separately. */
function fromVersion1(state: StoredState): SavedAlertState {
  const notified: Record<string, LegacyNotificationState['alerts'][string]> = {};
  const alerts = state.alerts.map(({ notified: receivers, reminders, held, muted, ...alert }) => {
    notified[alert.fingerprint] = { receivers: receivers ?? {}, reminders: reminders ?? 0, held, muted };
    return alert;
  });
  return { alerts, legacy: { alerts: notified, transitions: state.transitions ?? {}, flapping: state.flapping ?? {} } };
}
