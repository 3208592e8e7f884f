import { scrubSecrets } from '../config/redact.js';
import { errorForView, type StatusView } from './daemon-view.js';
import { badge, escapeHtml, table } from './html.js';
import type { AlertRecord } from '../alerts/evaluation/alert-record.js';
import type { AlertPlane } from '../alerts/alert-plane.js';
import { NOTIFICATIONS_FAILING_RULE } from '../alerts/dispatch/route/routing.js';
import { describe as describeSilence } from '../alerts/dispatch/silence/silences.js';

/** The status page lists this many silences, soonest-ending first; the API lists them all. */
const MAX_SILENCES_SHOWN = 50;
/** Comments and creators are cut to this many characters on the page. */
const MAX_TEXT_SHOWN = 160;

/** The status page's alert section: active alerts, then each receiver's last delivery (no URLs, no secrets). */
export function renderAlertsSection(alerting: AlertPlane, view: StatusView): string {
  const alerts = alerting
    .activeAlerts()
    .map((alert) => [
      escapeHtml(alert.rule),
      `<span class="badge ${alert.labels.severity === 'critical' ? 'bad' : escapeHtml(alert.labels.severity)}">${escapeHtml(alert.labels.severity)}</span>`,
      escapeHtml(stateText(alerting, alert)),
      escapeHtml(labelText(alert.labels)),
      escapeHtml(scrubSecrets(alert.annotations.summary ?? '')),
      escapeHtml(new Date(alert.activeSinceMs).toISOString()),
    ]);
  const failing = new Set(
    alerting
      .activeAlerts()
      .filter((alert) => alert.rule === NOTIFICATIONS_FAILING_RULE && alert.state === 'firing')
      .map((alert) => alert.labels.receiver),
  );
  const receivers = alerting.config.receivers.map((receiver) => {
    const last = alerting.lastDelivery(receiver.name);
    return [
      escapeHtml(receiver.name),
      escapeHtml(receiver.type),
      escapeHtml(receiver.severities.join(', ')),
      badge(!failing.has(receiver.name), 'ok', 'failing'),
      last ? badge(last.outcome === 'delivered', escapeHtml(last.outcome), escapeHtml(last.outcome)) : badge(undefined),
      escapeHtml(last ? `${new Date(last.atMs).toISOString()} (${last.alertname})` : 'never'),
      escapeHtml(errorForView(last?.error, view, scrubSecrets)),
    ];
  });
  const unexpired = alerting.silences
    .list()
    .filter((silence) => silence.state !== 'expired')
    .sort((a, b) => Date.parse(a.endsAt) - Date.parse(b.endsAt));
  const silences = unexpired.slice(0, MAX_SILENCES_SHOWN).map((silence) => [
    escapeHtml(silence.id),
    alerting.silences.matchesEveryAlert(silence)
      ? `${escapeHtml(silence.state)} <span class="badge bad">matches every alert</span>`
      : escapeHtml(silence.state),
    escapeHtml(cut(describeSilence(silence))),
    escapeHtml(silence.startsAt),
    escapeHtml(silence.endsAt),
    // What a client typed is shown as typed: scrubbing it would tell the client which strings are secrets.
    escapeHtml(cut(silence.createdBy)),
    escapeHtml(cut(silence.comment)),
  ]);
  const more =
    unexpired.length > MAX_SILENCES_SHOWN
      ? `<p>${unexpired.length - MAX_SILENCES_SHOWN} more silences: <code>GET /api/v2/silences</code> lists them all.</p>`
      : '';
  return `<h2 id="alerts">Alerts</h2>
${table(['rule', 'severity', 'state', 'labels', 'summary', 'active since'], alerts, 'No active alerts.')}
<h2 id="silences">Silences</h2>
<p>Managed through the Alertmanager API v2 on this port, e.g. <code>amtool --alertmanager.url=URL silence add target=NAME --duration=1h --comment=...</code>.</p>
${table(['id', 'state', 'matchers', 'starts', 'ends', 'created by', 'comment'], silences, 'No active or pending silences.')}${more}
<h2>Receivers</h2>
<p>Outbox: ${alerting.outbox.depth} queued.</p>
${table(['receiver', 'type', 'severities', 'health', 'last delivery', 'at', 'last error'], receivers, 'No receivers configured.')}`;
}

function cut(text: string): string {
  return text.length > MAX_TEXT_SHOWN ? `${text.slice(0, MAX_TEXT_SHOWN)}…` : text;
}

function stateText(alerting: AlertPlane, alert: AlertRecord): string {
  const { flappingSince, held, muted } = alerting.verdicts.verdictOn(alert.fingerprint);
  const notes = [
    flappingSince !== undefined ? `flapping${held ? `, ${held} held until it settles` : ''}` : '',
    alert.stale ? 'stale: a collector of the target is failing' : '',
    muted ?? '',
  ].filter(Boolean);
  return notes.length > 0 ? `${alert.state} (${notes.join('; ')})` : alert.state;
}

function labelText(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .filter(([key]) => key !== 'alertname' && key !== 'severity')
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}
