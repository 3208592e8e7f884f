import { formatDuration } from '../../config/duration.js';
import { type AlertRule, type RuleSettings, runbookUrl, type Severity, type TwinValues } from './rule.js';

/** Renders the Prometheus twins that built-in rules carry (AlertRule.prometheus), and the helpers their texts use. */

/** A ratio as the twins' texts show it: 0.755 is "75.5%". */
export function percent(ratio: number): string {
  return `${Math.round(ratio * 1000) / 10}%`;
}

/** Seconds as a number of days, for thresholds configured as durations and read in days. */
export function days(seconds: number): number {
  return seconds / 86_400;
}

const WORDS: ReadonlyArray<readonly [string, number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** Seconds as the twins' texts say them: "1 minute", "15 minutes", "7 days". */
export function human(seconds: number): string {
  const [word, size] = WORDS.find(([, unit]) => seconds % unit === 0 && seconds >= unit) ?? WORDS[3]!;
  const count = seconds / size;
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Template text as written in a rule file, without the indentation of the source. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
  return lines.map((line) => line.slice(indent)).join('\n');
}

/** One rule of a Prometheus rule file. */
export interface PrometheusRuleEntry {
  readonly alert: string;
  readonly expr: string;
  readonly for: string;
  readonly labels: { readonly severity: Severity };
  readonly annotations: { readonly summary: string; readonly description: string; readonly runbook_url: string };
}

/** The twin of `rule` as Prometheus rules, with the settings the daemon would evaluate it with. */
export function renderTwin(rule: AlertRule, settings: RuleSettings, selector: string): PrometheusRuleEntry[] {
  if (!settings.enabled) return [];
  const values: TwinValues = { sel: selector, p: settings.params, forSeconds: settings.forMs / 1000 };
  return rule.prometheus.alerts.map((alert) => ({
    alert: rule.name,
    expr: dedent(alert.expr(values)),
    for: formatDuration(settings.forMs),
    labels: { severity: settings.severity ?? alert.severity },
    annotations: {
      summary: dedent(alert.summary(values)),
      description: dedent(alert.description(values)),
      runbook_url: runbookUrl(rule.name),
    },
  }));
}
