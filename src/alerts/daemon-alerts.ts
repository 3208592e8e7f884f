import type { Logger } from 'pino';
import type { AlertsConfig } from '../config/alerts-schema.js';
import type { MetricsSnapshot } from '../metrics/snapshot.js';
import { Alerting } from './alerting.js';
import type { CollectorLookup } from './rule.js';
import { renderAlertsSection } from './status-section.js';

const ALERTS_SLICE = '~alerts';
/** How long a stopping daemon keeps delivering; what is left stays in the outbox for the next start. */
const STOP_DRAIN_MS = 3_000;

/** The daemon's handle on the alert plane: present while the config has an `alerts:` section. */
export class DaemonAlerts {
  private alerting?: Alerting;

  constructor(private readonly log: Logger, private readonly collectors?: CollectorLookup) {}

  get current(): Alerting | undefined {
    return this.alerting;
  }

  /** Creates the alert plane, or reconfigures it on reload, keeping alert state and outbox. */
  async configure(config: AlertsConfig | undefined): Promise<void> {
    if (config && this.alerting) return this.alerting.reconfigure(config);
    if (config) {
      this.alerting = new Alerting(config, this.log.child({ component: 'alerts' }), this.collectors);
      return;
    }
    const removed = this.alerting;
    this.alerting = undefined;
    await removed?.stop(0);
  }

  /**
   * Evaluates the rules over the current samples and publishes the alert self-metrics. Until the
   * first collection round is complete, series that are merely not collected yet would look like
   * resolved conditions, so rules are not evaluated before then.
   */
  afterRun(snapshot: MetricsSnapshot, firstRoundComplete: boolean): void {
    if (!this.alerting) return snapshot.setSlice(ALERTS_SLICE, []);
    if (firstRoundComplete) this.alerting.evaluate(snapshot.samples());
    snapshot.setSlice(ALERTS_SLICE, this.alerting.samples());
  }

  statusSection(): string {
    return this.alerting ? renderAlertsSection(this.alerting) : '';
  }

  async stop(): Promise<void> {
    await this.alerting?.stop(STOP_DRAIN_MS);
  }
}
