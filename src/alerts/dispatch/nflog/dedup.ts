import { labelsFingerprint } from '../notify/receivers/alertmanager-identity.js';
import type { OutgoingNotification } from '../notify/receivers/group.js';
import type { NotifiedGroup } from './nflog.js';

/** The fingerprints (Alertmanager's, of the label sets) a notification lists as firing and as resolved. */
export function notifiedGroup(notifications: readonly OutgoingNotification[]): Omit<NotifiedGroup, 'atMs'> {
  const of = (status: string) =>
    new Set(
      notifications
        .filter((notification) => notification.alert.status === status)
        .map((notification) => labelsFingerprint(notification.alert.labels)),
    );
  return { firing: of('firing'), resolved: of('resolved') };
}

/**
 * Alertmanager's DedupStage, against the group's entry in the notification log (`last`): a group is
 * notified when something fires that its last notification did not list as firing, when an alert
 * resolved that it did not list as resolved (send_resolved), when everything resolved after it
 * listed firing alerts, or when a reminder is due. A group never notified is notified only if
 * something fires.
 */
export function needsUpdate(
  last: NotifiedGroup | undefined,
  notifications: readonly OutgoingNotification[],
  sendResolved: boolean,
  reminderDue: boolean,
): boolean {
  const now = notifiedGroup(notifications);
  if (last === undefined) return now.firing.size > 0;
  if (![...now.firing].every((fingerprint) => last.firing.has(fingerprint))) return true;
  // Deliberately unlike Alertmanager: a firing that failed may have paged all the same; its resolve goes out.
  if (now.firing.size === 0) return last.firing.size > 0 || [...now.resolved].some((fingerprint) => last.tried?.has(fingerprint));
  if (sendResolved && ![...now.resolved].every((fingerprint) => last.resolved.has(fingerprint))) return true;
  return reminderDue;
}
