import type { AlertRecord } from '../../evaluation/alert-record.js';
import { matchesAll, type Matcher } from '../../matchers/matchers.js';

/** Alertmanager's inhibit rule: a firing source alert mutes the target alerts that agree with it on `equal`. */
export interface InhibitRule {
  readonly sourceMatchers: readonly Matcher[];
  readonly targetMatchers: readonly Matcher[];
  readonly equal: readonly string[];
}

type Labels = Readonly<Record<string, string>>;

/** The firing alerts: all of them, or those of one target (cheap, for the many rules with `equal: [target, ...]`). */
export interface FiringAlerts {
  all(): readonly AlertRecord[];
  ofTarget(target: string): readonly AlertRecord[];
}

/**
 * Which alerts are inhibited, given the firing alerts of one evaluation. As in Alertmanager an alert
 * never inhibits itself, and a label missing on both sides counts as equal.
 */
export class Inhibitor {
  constructor(
    private readonly rules: readonly InhibitRule[],
    private readonly firing: FiringAlerts,
  ) {}

  /** The source alert that inhibits these labels, or undefined. */
  inhibitedBy(labels: Labels, fingerprint: string): AlertRecord | undefined {
    for (const rule of this.rules) {
      if (!matchesAll(rule.targetMatchers, labels)) continue;
      // A source must agree on every `equal` label: with `target` among them, only that target's alerts can.
      const candidates =
        rule.equal.includes('target') && labels.target !== undefined ? this.firing.ofTarget(labels.target) : this.firing.all();
      const source = candidates.find(
        (alert) =>
          alert.fingerprint !== fingerprint &&
          matchesAll(rule.sourceMatchers, alert.labels) &&
          rule.equal.every((name) => (alert.labels[name] ?? '') === (labels[name] ?? '')),
      );
      if (source) return source;
    }
    return undefined;
  }
}
