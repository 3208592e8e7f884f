import type { AlertStatus } from '../../../evaluation/alert-record.js';
import type { AlertPayload } from '../payload.js';

/** What one request to a receiver carries: the notifications of one group, Alertmanager-style. */
/** One queued notification as a receiver sends it. */
export interface OutgoingNotification {
  readonly receiver: string;
  readonly key: string;
  readonly reminder: boolean;
  readonly alert: AlertPayload;
}

export interface OutgoingGroup {
  readonly receiver: string;
  /** Idempotency key of the request: the notification's own key, or a hash of the members' keys. */
  readonly key: string;
  /** The values of the receiver's group_by labels shared by every alert of the group. */
  readonly groupLabels: Readonly<Record<string, string>>;
  readonly notifications: readonly OutgoingNotification[];
}

type Labels = Readonly<Record<string, string>>;

export function alertsOf(group: OutgoingGroup): AlertPayload[] {
  return group.notifications.map((notification) => notification.alert);
}

/** A group is firing while any of its alerts fires, as in Alertmanager. */
export function groupStatus(alerts: readonly AlertPayload[]): AlertStatus {
  return alerts.some((alert) => alert.status === 'firing') ? 'firing' : 'resolved';
}

/** The pairs every alert has in common (Alertmanager's commonLabels / commonAnnotations). */
export function common(sets: readonly Labels[]): Record<string, string> {
  const [first, ...rest] = sets;
  return Object.fromEntries(Object.entries(first ?? {}).filter(([key, value]) => rest.every((set) => set[key] === value)));
}

/** `{alertname="X", target="y"}`, keys sorted, as Alertmanager prints a label set. */
export function labelSetText(labels: Labels): string {
  return `{${Object.keys(labels)
    .sort()
    .map((key) => `${key}=${JSON.stringify(labels[key])}`)
    .join(', ')}}`;
}

/** Alertmanager's groupKey: the route's key (the matchers of its path; "{}" for the root) and the group's labels. */
export function alertmanagerGroupKey(routeKey: string | undefined, group: Pick<OutgoingGroup, 'groupLabels'>): string {
  return `${routeKey ?? '{}'}:${labelSetText(group.groupLabels)}`;
}

export function moreAlerts(count: number): string {
  return `... ${count} more alert${count === 1 ? '' : 's'}`;
}

/**
 * Joins whole blocks (one per alert) while they fit in `limit` characters, and ends with
 * "... N more alerts" when some are cut. A single block longer than the limit is cut itself.
 */
export function fitBlocks(head: string, blocks: readonly string[], separator: string, limit: number): string {
  let text = head;
  for (let index = 0; index < blocks.length; index++) {
    const rest = blocks.length - index - 1;
    const reserve = rest > 0 ? separator.length + moreAlerts(rest).length : 0;
    const next = `${text}${separator}${blocks[index]}`;
    if (next.length + reserve <= limit) {
      text = next;
      continue;
    }
    const tail = `${separator}${moreAlerts(blocks.length - index)}`;
    return text.length + tail.length <= limit ? text + tail : cut(text, limit);
  }
  return cut(text, limit);
}

/** Cuts text to `max` characters, marking the cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
