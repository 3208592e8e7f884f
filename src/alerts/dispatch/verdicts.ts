import type { AlertStatus } from '../evaluation/alert-record.js';

/** What dispatch decided about one open alert, as views show it beside the alert. */
export interface AlertVerdict {
  /** Since when the alert is flapping: its changes are merged until it settles. */
  readonly flappingSince?: number;
  /** The change receivers have not been told yet because the alert is flapping; sent once it settles. */
  readonly held?: AlertStatus;
  /** Why a firing alert is not notified now: the inhibiting alert (`inhibited by ...`) or the silences (`silenced by ...`). */
  readonly muted?: string;
}

/**
 * The read side of dispatch's verdicts for the status page and the Alertmanager API: what they
 * show of routing, flap holds and muting, without reaching into dispatch. Evaluation's alerts carry none.
 */
export interface AlertVerdicts {
  verdictOn(fingerprint: string): AlertVerdict;
}
