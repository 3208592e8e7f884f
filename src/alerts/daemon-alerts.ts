import type { StatusView } from '../server/daemon-view.js';
import type { Logger } from 'pino';
import type { ResponseMemory } from '../clients/response-memory.js';
import { every, systemClock, type Clock } from '../clock.js';
import type { AlertsConfig } from '../config/alerts-schema.js';
import type { MetricsSnapshot } from '../metrics/snapshot.js';
import { Alerting } from './alerting.js';
import { FLEET_FAMILIES, rulesByFamily } from './evaluation/read-families.js';
import type { CollectorLookup } from './evaluation/rule.js';
import { renderAlertsSection } from '../server/alerts-section.js';

const ALERTS_SLICE = '~alerts';
const DELIVERY_SLICE = '~delivery';
/** How long a stopping daemon keeps delivering; what is left stays in the outbox for the next start. */
const STOP_DRAIN_MS = 3_000;
/**
 * Runs evaluate their own target's rules as they end; this sweep evaluates every target now and
 * then, for what no run triggers: data held as unknown for a target that stopped reporting, a
 * relearning window ending, reminders of a target whose collectors are gone.
 */
const SWEEP_MS = 10_000;
/**
 * Fleet-wide rules (a chain against the same chain on other targets, the receivers' health) read
 * more than one run's target: they run on this coalesced tick, over every sample.
 */
const FLEET_TICK_MS = 1_000;

/** The daemon's handle on the alert plane: present while the config has an `alerts:` section. */
export class DaemonAlerts {
  private alerting?: Alerting;
  /** Set once evaluation has started: stops the sweep and the fleet tick. */
  private stopTimers?: () => void;

  constructor(
    private readonly log: Logger,
    private readonly snapshot: MetricsSnapshot,
    private readonly shared: { collectors?: CollectorLookup; responseMemory?: ResponseMemory; clock?: Clock } = {},
  ) {
    // A handful of series (per receiver and outcome), cheap to take at each scrape.
    snapshot.beforeServe(() => this.publishDeliverySamples());
  }

  get current(): Alerting | undefined {
    return this.alerting;
  }

  /** Creates the alert plane, or reconfigures it on reload, keeping alert state and outbox. */
  async configure(config: AlertsConfig | undefined): Promise<void> {
    if (config && this.alerting) return this.alerting.reconfigure(config);
    if (config) {
      const { collectors, ...resources } = this.shared;
      this.alerting = new Alerting(config, this.log.child({ component: 'alerts' }), collectors, resources);
      return;
    }
    const removed = this.alerting;
    this.alerting = undefined;
    this.snapshot.setSlice(ALERTS_SLICE, []);
    this.snapshot.setSlice(DELIVERY_SLICE, []);
    await removed?.stop(0);
  }

  /**
   * Called once the first collection round is complete: before that, series that are merely not
   * collected yet would look like resolved conditions. Evaluates everything once, then sweeps.
   */
  startEvaluating(): void {
    this.sweep();
    if (this.stopTimers) return;
    const clock = this.shared.clock ?? systemClock;
    const timers = [every(clock, SWEEP_MS, () => this.sweep()), every(clock, FLEET_TICK_MS, () => this.evaluateFleet())];
    this.stopTimers = () => {
      for (const stop of timers) stop();
    };
  }

  /**
   * After a run of `target` changed `families` (undefined: anything, e.g. its reachability flipped):
   * evaluates only the rules reading those families, over that target's samples only.
   */
  afterRun(target: string, families: ReadonlySet<string> | undefined): void {
    if (!this.alerting || !this.stopTimers) return;
    const rules = families && rulesReading(families);
    if (rules?.size === 0) return;
    if (this.alerting.evaluateTarget(target, this.snapshot.samplesOf(target), rules)) this.publishAlertCounts();
  }

  statusSection(view: StatusView): string {
    return this.alerting ? renderAlertsSection(this.alerting, view) : '';
  }

  async stop(): Promise<void> {
    this.stopTimers?.();
    await this.alerting?.stop(STOP_DRAIN_MS);
  }

  /** Fleet-wide rules read the receivers' series too: those are taken fresh, not from the last scrape. */
  private sweep(): void {
    if (!this.alerting) return;
    this.publishDeliverySamples();
    this.alerting.evaluate(this.snapshot.samples());
    this.publishAlertCounts();
  }

  private evaluateFleet(): void {
    if (!this.alerting) return;
    this.publishDeliverySamples();
    if (this.alerting.evaluateFleet(this.snapshot.samplesNamed(FLEET_FAMILIES))) this.publishAlertCounts();
  }

  private publishDeliverySamples(): void {
    this.snapshot.setSlice(DELIVERY_SLICE, this.alerting?.deliverySamples() ?? []);
  }

  /** Alert counts change only with an evaluation that changed an alert: then at once, so /metrics agrees with what was notified. */
  private publishAlertCounts(): void {
    this.snapshot.setSlice(ALERTS_SLICE, this.alerting?.alertSamples() ?? []);
  }
}

function rulesReading(families: ReadonlySet<string>): Set<string> {
  const rules = new Set<string>();
  for (const family of families) for (const rule of rulesByFamily.get(family) ?? []) rules.add(rule);
  return rules;
}
