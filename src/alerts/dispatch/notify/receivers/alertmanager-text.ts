import type { AlertPayload } from '../payload.js';
import { alertsOf, common, groupStatus, type OutgoingGroup } from './group.js';

/**
 * The texts of Alertmanager's default templates (template/default.tmpl), rendered for a group as
 * Alertmanager 0.25 renders them, so an integration configured without templates reads the same
 * whether avaxmon or Alertmanager sent it.
 */

type Labels = Readonly<Record<string, string>>;

/** Go's template KV.SortedPairs: alertname first, then the names in byte order. */
function sortedPairs(labels: Labels): Array<[string, string]> {
  const names = Object.keys(labels)
    .filter((name) => name !== 'alertname')
    .sort();
  return (labels.alertname === undefined ? names : ['alertname', ...names]).map((name) => [name, labels[name]]);
}

const values = (labels: Labels) => sortedPairs(labels).map(([, value]) => value);

/** `__subject`: `[FIRING:2] group label values (the other common label values)`. */
export function defaultSubject(group: OutgoingGroup): string {
  const alerts = alertsOf(group);
  const status = groupStatus(alerts);
  const count = status === 'firing' ? `:${alerts.filter((alert) => alert.status === 'firing').length}` : '';
  const commonLabels = common(alerts.map((alert) => alert.labels));
  const rest = Object.fromEntries(Object.entries(commonLabels).filter(([name]) => !(name in group.groupLabels)));
  const more = Object.keys(commonLabels).length > Object.keys(group.groupLabels).length ? `(${values(rest).join(' ')})` : '';
  return `[${status.toUpperCase()}${count}] ${values(group.groupLabels).join(' ')} ${more}`;
}

/** `__text_alert_list`: each alert's labels, annotations and source. */
function textAlertList(alerts: readonly AlertPayload[]): string {
  const pairs = (labels: Labels) =>
    sortedPairs(labels)
      .map(([name, value]) => ` - ${name} = ${value}\n`)
      .join('');
  return alerts
    .map((alert) => `Labels:\n${pairs(alert.labels)}Annotations:\n${pairs(alert.annotations)}Source: ${alert.generatorURL ?? ''}\n`)
    .join('');
}

/** `opsgenie.default.description`: the common annotations' values, then the firing and the resolved alerts. */
export function defaultOpsgenieDescription(group: OutgoingGroup): string {
  const alerts = alertsOf(group);
  const firing = alerts.filter((alert) => alert.status === 'firing');
  const resolved = alerts.filter((alert) => alert.status === 'resolved');
  const commonAnnotations = values(common(alerts.map((alert) => alert.annotations))).join(' ');
  return [
    `${commonAnnotations}\n`,
    firing.length > 0 ? `Alerts Firing:\n${textAlertList(firing)}` : '',
    '\n',
    resolved.length > 0 ? `Alerts Resolved:\n${textAlertList(resolved)}` : '',
  ].join('');
}

/** Cuts to `max` code points, the last one a "…", as Alertmanager's TruncateInRunes. */
export function truncateInRunes(text: string, max: number): string {
  const runes = [...text];
  if (runes.length <= max) return text;
  return max <= 3 ? runes.slice(0, max).join('') : `${runes.slice(0, max - 1).join('')}…`;
}
