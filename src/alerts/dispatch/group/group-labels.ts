import { pick } from '../../evaluation/sample-index.js';

/** The values of the group_by labels; "..." groups by every label, so each alert is its own group. */
export function groupLabelsOf(by: readonly string[], labels: Readonly<Record<string, string>>): Record<string, string> {
  return by.includes('...') ? { ...labels } : pick(labels, by);
}
