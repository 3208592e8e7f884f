import type { AlertRecord } from './alert.js';
import { matchesAll, type Matcher } from './matchers.js';

/** Alertmanager's inhibit rule: a firing source alert mutes the target alerts that agree with it on `equal`. */
export interface InhibitRule {
  readonly sourceMatchers: readonly Matcher[];
  readonly targetMatchers: readonly Matcher[];
  readonly equal: readonly string[];
}

type Labels = Readonly<Record<string, string>>;

/**
 * Which alerts are inhibited, given the firing alerts of one evaluation. As in Alertmanager an alert
 * never inhibits itself, and a label missing on both sides counts as equal.
 */
export class Inhibitor {
  constructor(
    private readonly rules: readonly InhibitRule[],
    private readonly firing: readonly AlertRecord[],
  ) {}

  /** The source alert that inhibits these labels, or undefined. */
  inhibitedBy(labels: Labels, fingerprint: string): AlertRecord | undefined {
    for (const rule of this.rules) {
      if (!matchesAll(rule.targetMatchers, labels)) continue;
      const source = this.firing.find(
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
