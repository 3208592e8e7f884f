import type { Logger } from 'pino';
import { formatDuration } from '../../../config/duration.js';
import { LabelledCounter } from '../../../metrics/labelled-counter.js';
import type { AlertRecord, AlertStatus } from '../../evaluation/alert-record.js';

/** An alert that is flapping: its notice went out, and later changes wait until none came for flap_settle. */
export interface FlapState {
  readonly sinceMs: number;
  lastChangeMs: number;
}

/** What survives a restart: each alert's recent notification times for the flap cap, and the flapping alerts. */
export interface SavedFlapState {
  readonly transitions: Readonly<Record<string, readonly number[]>>;
  /** Absent in state written before flap settling existed. */
  readonly flapping?: Readonly<Record<string, FlapState>>;
}

export interface FlapSettings {
  readonly flapWindowMs: number;
  readonly flapMaxTransitions: number;
  readonly flapSettleMs: number;
}

/**
 * What happens to a state change of an alert: `send` it; send it as the one `notice` that the
 * alert is flapping; or `hold` it, merged into the state sent once the alert settles.
 */
export type FlapDecision = 'send' | 'notice' | 'hold';

/**
 * Flap damping that merges notifications but never drops the last state. Once an alert changes
 * state `flap_max_transitions` times within `flap_window`, that change goes out as the "flapping"
 * notice and later changes are held; when no change came for `flap_settle`, the held state (the
 * current one) is sent. A critical firing is never held. Every held change is logged and counted.
 */
export class FlapDamper {
  readonly held = new LabelledCounter('avaxmon_alert_notifications_held_total', ['rule']);
  private readonly transitions = new Map<string, number[]>();
  private readonly flapping = new Map<string, FlapState>();
  /**
   * While an evaluation is in progress: each entry it changed, as it was before (for rollback). A
   * journal rather than a copy of everything: a run's evaluation touches its own target's alerts.
   */
  private journal?: Map<string, { transitions?: number[]; flapping?: FlapState }>;

  constructor(
    private settings: FlapSettings,
    private readonly log: Logger,
    restored: SavedFlapState,
  ) {
    for (const [fingerprint, times] of Object.entries(restored.transitions)) this.transitions.set(fingerprint, [...times]);
    for (const [fingerprint, state] of Object.entries(restored.flapping ?? {})) this.flapping.set(fingerprint, { ...state });
  }

  reconfigure(settings: FlapSettings): void {
    this.settings = settings;
  }

  flappingSince(fingerprint: string): number | undefined {
    return this.flapping.get(fingerprint)?.sinceMs;
  }

  /** `firstAsk` is false when the same held change is asked about again at a later evaluation. */
  decide(alert: AlertRecord, status: AlertStatus, nowMs: number, firstAsk: boolean): FlapDecision {
    this.touch(alert.fingerprint);
    const flap = this.settledOrCurrent(alert, nowMs);
    if (flap) {
      if (status === 'firing' && alert.labels.severity === 'critical') {
        flap.lastChangeMs = nowMs;
        return 'send';
      }
      if (firstAsk) {
        flap.lastChangeMs = nowMs;
        this.held.add({ rule: alert.rule });
        this.log.warn(
          { alert: alert.labels, status, flappingSince: new Date(flap.sinceMs).toISOString() },
          'Notification held back: the alert is flapping; its state is sent once it settles',
        );
      }
      return 'hold';
    }
    const recent = this.recent(alert.fingerprint, nowMs);
    recent.push(nowMs);
    if (recent.length <= this.settings.flapMaxTransitions) return 'send';
    this.flapping.set(alert.fingerprint, { sinceMs: nowMs, lastChangeMs: nowMs });
    this.log.warn(
      { alert: alert.labels, status, transitions: recent.length },
      'Alert is flapping: later changes are merged until it settles',
    );
    return 'notice';
  }

  /** A change that needs no notification of its own, e.g. the condition returned while its resolve was held. */
  noteChange(fingerprint: string, nowMs: number): void {
    this.touch(fingerprint);
    const flap = this.flapping.get(fingerprint);
    if (flap) flap.lastChangeMs = nowMs;
  }

  /** Ends the flapping of alerts that settled with nothing held: what receivers last got is their state. */
  sweep(nowMs: number, holding: (fingerprint: string) => boolean): void {
    for (const [fingerprint, flap] of this.flapping) {
      if (holding(fingerprint) || !this.isSettled(flap, nowMs)) continue;
      this.touch(fingerprint);
      this.flapping.delete(fingerprint);
    }
  }

  notice(fingerprint: string): string {
    return (
      `changed state more than ${this.settings.flapMaxTransitions} times within ${formatDuration(this.settings.flapWindowMs)}; ` +
      `further changes are merged and its state is sent once it has been stable for ${formatDuration(this.settings.flapSettleMs)} (fingerprint ${fingerprint})`
    );
  }

  state(nowMs: number): { transitions: Record<string, number[]>; flapping: Record<string, FlapState> } {
    for (const [fingerprint] of this.transitions) this.recent(fingerprint, nowMs);
    for (const [fingerprint, times] of this.transitions) if (times.length === 0) this.transitions.delete(fingerprint);
    return { transitions: Object.fromEntries(this.transitions), flapping: Object.fromEntries(this.flapping) };
  }

  /** Starts journaling the changes of an evaluation, so they can be rolled back. */
  begin(): void {
    this.journal = new Map();
  }

  /** Ends the evaluation's journal; returns whether the evaluation changed the damper's memory. */
  commit(): boolean {
    const changed = (this.journal?.size ?? 0) > 0;
    this.journal = undefined;
    return changed;
  }

  /** Puts back every entry the evaluation since begin() changed. */
  rollback(): void {
    for (const [fingerprint, before] of this.journal ?? []) {
      restore(this.transitions, fingerprint, before.transitions);
      restore(this.flapping, fingerprint, before.flapping);
    }
    this.journal = undefined;
  }

  /** Records an entry as it is before its first change in the evaluation under way. */
  private touch(fingerprint: string): void {
    if (!this.journal || this.journal.has(fingerprint)) return;
    const transitions = this.transitions.get(fingerprint);
    const flapping = this.flapping.get(fingerprint);
    this.journal.set(fingerprint, { transitions: transitions && [...transitions], flapping: flapping && { ...flapping } });
  }

  /** The alert's flapping state, or undefined once it has settled: then its count starts afresh. */
  private settledOrCurrent(alert: AlertRecord, nowMs: number): FlapState | undefined {
    const flap = this.flapping.get(alert.fingerprint);
    if (!flap || !this.isSettled(flap, nowMs)) return flap;
    this.flapping.delete(alert.fingerprint);
    this.transitions.delete(alert.fingerprint);
    this.log.info({ alert: alert.labels }, 'Flapping alert settled; sending its current state');
    return undefined;
  }

  private isSettled(flap: FlapState, nowMs: number): boolean {
    return nowMs - flap.lastChangeMs >= this.settings.flapSettleMs;
  }

  private recent(fingerprint: string, nowMs: number): number[] {
    const recent = (this.transitions.get(fingerprint) ?? []).filter((at) => nowMs - at < this.settings.flapWindowMs);
    this.transitions.set(fingerprint, recent);
    return recent;
  }
}

function restore<T>(entries: Map<string, T>, key: string, value: T | undefined): void {
  if (value === undefined) entries.delete(key);
  else entries.set(key, value);
}
