import type { ReceiverConfig } from '../config/alerts-schema.js';
import type { Severity } from './rule.js';

/** A receiver takes an alert when its severity is selected and every label matcher equals. */
export function routes(receiver: ReceiverConfig, labels: Readonly<Record<string, string>>): boolean {
  if (!receiver.severities.includes(labels.severity as Severity)) return false;
  return Object.entries(receiver.match).every(([key, value]) => labels[key] === value);
}
