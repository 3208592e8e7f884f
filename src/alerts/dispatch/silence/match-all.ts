import { randomBytes } from 'node:crypto';
import { collectorNames } from '../../../collectors/names.js';
import type { AlertsConfig } from '../../../config/alerts-schema.js';
import { ruleRegistry } from '../../evaluation/rules/index.js';
import { matchesValue, type Matcher } from '../../matchers/matchers.js';

/** The alerts one rule can raise: its name, its severities, and the label names of each kind of series it reads. */
export interface AlertKind {
  readonly alertname: string;
  readonly severities: readonly string[];
  readonly labelSets: ReadonlyArray<readonly string[]>;
}

/** What this daemon's alerts can look like: the enabled rules, the configured targets and receivers. */
export interface AlertUniverse {
  readonly kinds: readonly AlertKind[];
  readonly targets: readonly string[];
  readonly receivers: readonly string[];
}

export const EMPTY_UNIVERSE: AlertUniverse = { kinds: [], targets: [], receivers: [] };

export function alertUniverse(config: AlertsConfig, targets: readonly string[]): AlertUniverse {
  const kinds: AlertKind[] = [];
  for (const [alertname, rule] of ruleRegistry) {
    const settings = config.rules[alertname];
    if (!settings?.enabled) continue;
    const severities = settings.severity ? [settings.severity] : typeof rule.severity === 'string' ? [rule.severity] : [...rule.severity];
    kinds.push({ alertname, severities, labelSets: rule.sources.map((source) => source.labels) });
  }
  return { kinds, targets, receivers: config.receivers.map((receiver) => receiver.name) };
}

const CB58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const cb58 = (length: number) => [...randomBytes(length)].map((byte) => CB58[byte % CB58.length]).join('');
/** Unguessable, drawn at start: a silence cannot be written to spare exactly these values. */
const token = randomBytes(12).toString('base64url');
/**
 * Values a label that a rule takes from the node's data (a node ID, a chain) can have: the real
 * vocabulary where it is small, else values of the real shape drawn at random at start.
 */
const SAMPLE_VALUES: Readonly<Record<string, readonly string[]>> = {
  node_id: [`NodeID-${cb58(33)}`],
  subnet: ['11111111111111111111111111111111LpoYY', cb58(50)],
  chain: ['C', 'P', 'X', cb58(49)],
  check: ['C', 'P', 'X', 'bootstrapped', 'network', 'router', 'database', 'diskspace', 'bls'],
  view: ['network', 'self', 'target'],
  collector: collectorNames,
};

/**
 * Whether a silence with these matchers mutes every alert this daemon can raise: an alert of every
 * enabled rule, at each of its severities, on every configured target (or none, for rules without
 * one), with a missing label matching as the empty string. A label whose value comes from the
 * node's data counts as matched when some plausible value of it is: a silence that spares only a
 * value nobody has (`node_id!="x"`) mutes everything all the same.
 *
 * Each matcher is tested against each rule, severity, target and sample value once, not against
 * their product: the work grows with their sum.
 */
export function matchesEveryAlert(matchers: readonly Matcher[], universe: AlertUniverse): boolean {
  if (universe.kinds.length === 0) return false;
  const byLabel = new Map<string, Matcher[]>();
  for (const matcher of matchers) byLabel.set(matcher.name, [...(byLabel.get(matcher.name) ?? []), matcher]);
  const accepts = (label: string, value: string) => (byLabel.get(label) ?? []).every((matcher) => matchesValue(matcher, value));
  const dataLabels = [...byLabel.keys()].filter((label) => label !== 'alertname' && label !== 'severity' && label !== 'target');
  const everyTarget = universe.targets.every((target) => accepts('target', target));
  const someValue = new Map(
    dataLabels.map((label) => [
      label,
      [...(label === 'receiver' ? universe.receivers : (SAMPLE_VALUES[label] ?? [])), token].some((value) => accepts(label, value)),
    ]),
  );
  return universe.kinds.every(
    (kind) =>
      accepts('alertname', kind.alertname) &&
      kind.severities.every((severity) => accepts('severity', severity)) &&
      kind.labelSets.every(
        (labels) =>
          (labels.includes('target') ? everyTarget : accepts('target', '')) &&
          dataLabels.every((label) => (labels.includes(label) ? someValue.get(label) : accepts(label, ''))),
      ),
  );
}
