import { counter, gauge } from '../metric-desc.js';

/** Self-metrics of the built-in alert engine and its notification outbox. */
export const alertsMetrics = [
  gauge('avaxmon_alerts', 'Alerts of the built-in engine by rule, severity and state (pending or firing).', ['rule', 'severity', 'state']),
  counter(
    'avaxmon_notifications_total',
    'Notification delivery attempts by receiver and outcome (delivered, retried, rejected, expired, dropped).',
    ['receiver', 'outcome'],
  ),
  counter(
    'avaxmon_alert_notifications_held_total',
    'State changes of flapping alerts held back by flap damping (merged into the state sent once the alert settles), by rule.',
    ['rule'],
  ),
  gauge('avaxmon_notification_queue_depth', 'Notifications waiting in the durable outbox.', []),
  gauge('avaxmon_notification_oldest_queued_age_seconds', 'Age of the oldest notification waiting in the outbox; 0 when it is empty.', []),
  counter(
    'avaxmon_notifications_dropped_total',
    'Notifications dropped from the outbox before delivery, by receiver and reason (outbox_full: past alerts.max_queued_notifications, oldest first).',
    ['receiver', 'reason'],
  ),
  counter(
    'avaxmon_state_dir_write_errors_total',
    'Failed writes to alerts.state_dir by file (outbox, journal, alerts, silences); the state is kept in memory meanwhile.',
    ['file'],
  ),
  gauge(
    'avaxmon_notification_receiver_oldest_queued_age_seconds',
    'Age of the oldest notification waiting in the outbox for this receiver; 0 when none waits.',
    ['receiver'],
  ),
  gauge('avaxmon_silences', "Silences by state (active, pending, expired), as Alertmanager's alertmanager_silences.", ['state']),
  gauge(
    'avaxmon_silences_matching_every_alert',
    'Active or pending silences that match an alert of every rule on any target: they hide every notification.',
    [],
  ),
] as const;
