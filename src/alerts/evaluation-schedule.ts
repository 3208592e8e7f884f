import type { StatusView } from '../server/daemon-view.js';
import type { Logger } from 'pino';
import type { ResponseMemory } from '../clients/response-memory.js';
import { every, systemClock, type Clock } from '../schedule/clock.js';
import { inTurn } from '../schedule/loop-turns.js';
import type { AlertsConfig } from '../config/alerts-schema.js';
import type { MetricsSnapshot } from '../metrics/snapshot.js';
import type { Sample } from '../metrics/metric-desc.js';
import { AlertPlane } from './alert-plane.js';
import { familiesReadBy, FLEET_FAMILIES, rulesByFamily } from './evaluation/read-families.js';
import type { CollectorLookup } from './evaluation/rule.js';
import type { SettledListener, TargetScope } from './evaluation/engine.js';
import { ruleRegistry } from './evaluation/rules/index.js';
import { SettledRules } from './evaluation/settled-rules.js';
import { renderAlertsSection } from '../server/alerts-section.js';

const ALERTS_SLICE = '~alerts';
const DELIVERY_SLICE = '~delivery';
/**
 * How long a stopping daemon keeps delivering, beside collection's shorter grace: a notification
 * sent now is worth the wait, a run's result is not. What is left stays in the outbox for the next start.
 */
const STOP_DRAIN_MS = 1_000;
/**
 * Runs that changed their series evaluate their own target's rules as they end; the sweep evaluates
 * every target this often, for what no run triggers: a `for` ending while the data stays the same,
 * data held as unknown for a target that stopped reporting, a relearning window ending, reminders
 * of a target whose collectors are gone. It sweeps a share of the fleet at each fleet tick: a
 * 1,000-node fleet swept at once held the event loop for 200 ms.
 */
const SWEEP_MS = 10_000;
/** The sweep's share of the fleet is evaluated this often. */
const FLEET_TICK_MS = 1_000;
/**
 * A share is evaluated this many targets at a time, each piece in a turn of the event loop (see
 * loop-turns.ts): at 1,000 nodes a share of 100 took 15-50 ms, and up to 250 ms with a collection in it.
 */
const SWEEP_PIECE_TARGETS = 25;
const TICKS_PER_SWEEP = SWEEP_MS / FLEET_TICK_MS;
/**
 * Fleet-wide rules (a chain against the same chain on other targets, the receivers' health) read
 * more than one run's target: they run this often, over those families of every target. Their
 * thresholds are minutes (a stall of 2-5 minutes, a notification lost within 15); every second,
 * reading about 17,000 samples each time, a 1,000-node daemon spent 1-5% more CPU.
 */
const FLEET_EVALUATION_TICKS = 5;

/**
 * When the alert plane evaluates: after a run that changed its target's series, a share of the
 * fleet at each tick (the sweep), and the fleet-wide rules every few ticks. The daemon's handle on
 * the plane: it creates the plane while the config has an `alerts:` section, reloads and stops it,
 * and publishes its series to the snapshot.
 */
export class EvaluationSchedule {
  private alerting?: AlertPlane;
  /** Set once evaluation has started: stops the fleet tick. */
  private stopTimers?: () => void;
  /** The daemon is stopping: nothing is evaluated any more. */
  private stopped = false;
  /** The targets the current sweep has yet to cover, and how many it takes at each tick. */
  private sweepQueue: string[] = [];
  private sweepShare = 0;
  /** What the sweep may leave out (see SettledRules); unused by a full sweep. */
  private readonly settled = new SettledRules();
  /** The enabled per-target rules, what a sweep evaluates for each target. */
  private targetRules: string[] = [];

  constructor(
    private readonly log: Logger,
    private readonly snapshot: MetricsSnapshot,
    private readonly shared: {
      collectors?: CollectorLookup;
      responseMemory?: ResponseMemory;
      clock?: Clock;
      /** 'full' evaluates every rule of every target at each sweep: the reference the default, incremental sweep is tested against. */
      sweep?: 'incremental' | 'full';
    } = {},
  ) {
    // A handful of series (per receiver and outcome), cheap to take at each scrape.
    snapshot.beforeServe(() => this.publishDeliverySamples());
  }

  get current(): AlertPlane | undefined {
    return this.alerting;
  }

  /**
   * Creates the alert plane, or reconfigures it on reload, keeping alert state and outbox. `targets`:
   * the configured targets' names, which the alerts' `target` label takes.
   */
  async configure(config: AlertsConfig | undefined, targets: readonly string[] = []): Promise<void> {
    // Settled verdicts hold for the rules' settings they were reached with.
    this.settled.retain();
    this.targetRules = config ? perTargetRules(config) : [];
    if (config && this.alerting) return this.alerting.reconfigure(config, targets);
    if (config) {
      const { collectors, responseMemory, clock } = this.shared;
      this.alerting = new AlertPlane(config, this.log.child({ component: 'alerts' }), collectors, { responseMemory, clock, targets });
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
    if (this.stopped) return;
    this.evaluateAll();
    if (this.stopTimers) return;
    let ticks = 0;
    this.stopTimers = every(this.shared.clock ?? systemClock, FLEET_TICK_MS, () => {
      // In a turn of the event loop (see loop-turns.ts) apart from the sweep's: at 1,000 nodes the
      // fleet-wide rules take 40-90 ms, and together with a share of the sweep they held scrapes back.
      if (++ticks % FLEET_EVALUATION_TICKS === 0) void inTurn(() => this.evaluateFleet());
      this.sweepNextShare();
    });
  }

  /**
   * After a run of `target` changed `families` (undefined: anything, e.g. its reachability flipped):
   * evaluates only the rules reading those families, over that target's samples only.
   */
  afterRun(target: string, families: ReadonlySet<string> | undefined): void {
    if (!this.alerting || !this.stopTimers || this.stopped) return;
    const rules = families && rulesReading(families);
    if (rules?.size === 0) return;
    const scope = { target, samples: this.samplesFor(target, rules), rules, settled: this.settleFor(target) };
    if (this.alerting.evaluateTarget(scope)) this.publishAlertCounts();
  }

  statusSection(view: StatusView): string {
    return this.alerting ? renderAlertsSection(this.alerting, view) : '';
  }

  /**
   * The daemon is stopping: runs that end from now on (many cut short by the stop, which would read
   * as failing collectors) change no alert, and the sweep ends. What they would have found, the next
   * start finds.
   */
  stopEvaluating(): void {
    this.stopped = true;
    this.stopTimers?.();
  }

  /** Delivers for up to STOP_DRAIN_MS, then writes the alert state; see AlertPlane.stop. */
  async stop(): Promise<void> {
    this.stopEvaluating();
    await this.alerting?.stop(STOP_DRAIN_MS);
  }

  /** Fleet-wide rules read the receivers' series too: those are taken fresh, not from the last scrape. */
  private evaluateAll(): void {
    if (!this.alerting) return;
    this.publishDeliverySamples();
    this.alerting.evaluate(this.snapshot.samples());
    this.publishAlertCounts();
  }

  private sweepNextShare(): void {
    if (!this.alerting) return;
    if (this.sweepQueue.length === 0) {
      this.sweepQueue = [...new Set([...this.snapshot.targets(), ...this.alerting.alertTargets()])];
      this.sweepShare = Math.ceil(this.sweepQueue.length / TICKS_PER_SWEEP);
      this.settled.retain(new Set(this.sweepQueue));
    }
    const share = this.sweepQueue.splice(0, this.sweepShare);
    for (let start = 0; start < share.length; start += SWEEP_PIECE_TARGETS) {
      const piece = share.slice(start, start + SWEEP_PIECE_TARGETS);
      void inTurn(() => this.sweep(piece));
    }
  }

  private sweep(targets: readonly string[]): void {
    if (!this.alerting || this.stopped) return;
    const scopes = targets.map((target) => this.sweepScope(target));
    if (this.alerting.evaluateTargets(scopes)) this.publishAlertCounts();
  }

  /**
   * A target's part of the sweep: the rules that may find otherwise than at their last evaluation.
   * With none, its samples are not read; the target still has its (empty) turn, so dispatch is
   * given each evaluation's alerts exactly as a full sweep would give them.
   */
  private sweepScope(target: string): TargetScope {
    if (this.shared.sweep === 'full') return { target, samples: this.snapshot.samplesOf(target) };
    const rules = this.settled.unsettled(
      target,
      this.targetRules,
      (families) => this.snapshot.changedSince(target, families),
      this.alerting!.openRulesOf(target),
    );
    return { target, samples: rules.size > 0 ? this.samplesFor(target, rules) : [], rules, settled: this.settleFor(target) };
  }

  /** What `rules` (all when undefined) read of the target; a full sweep, the reference, is given every sample of it. */
  private samplesFor(target: string, rules: ReadonlySet<string> | undefined): Sample[] {
    if (!rules || this.shared.sweep === 'full') return this.snapshot.samplesOf(target);
    return this.snapshot.samplesOf(target, familiesReadBy(rules));
  }

  /** Records the rules that settled over the target's samples as they are now (undefined for a full sweep). */
  private settleFor(target: string): SettledListener | undefined {
    if (this.shared.sweep === 'full') return undefined;
    const version = this.snapshot.currentVersion;
    return (rule, reads) => this.settled.settle(target, rule, version, reads);
  }

  private evaluateFleet(): void {
    if (!this.alerting || this.stopped) return;
    this.publishDeliverySamples();
    const fleetFamily = (name: string) => (FLEET_FAMILIES.has(name) ? this.snapshot.samplesNamed([name]) : []);
    if (this.alerting.evaluateFleet(fleetFamily)) this.publishAlertCounts();
  }

  private publishDeliverySamples(): void {
    this.snapshot.setSlice(DELIVERY_SLICE, this.alerting?.deliverySamples() ?? []);
  }

  /** Alert counts change only with an evaluation that changed an alert: then at once, so /metrics agrees with what was notified. */
  private publishAlertCounts(): void {
    this.snapshot.setSlice(ALERTS_SLICE, this.alerting?.alertSamples() ?? []);
  }
}

/** The enabled rules that read one target at a time (not fleet-wide). */
function perTargetRules(config: AlertsConfig): string[] {
  return [...ruleRegistry].filter(([name, rule]) => rule.fleetReads === undefined && config.rules[name]?.enabled).map(([name]) => name);
}

function rulesReading(families: ReadonlySet<string>): Set<string> {
  const rules = new Set<string>();
  for (const family of families) for (const rule of rulesByFamily.get(family) ?? []) rules.add(rule);
  return rules;
}
