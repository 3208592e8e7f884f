import type { FastifyInstance } from 'fastify';
import { errorForView, type DaemonView, type StatusView } from '../daemon-view.js';
import { isTrustedReader } from '../trusted-client.js';
import { scrubSecrets } from '../../redact.js';
import { REVISION, VERSION } from '../../version.js';
import { badge, escapeHtml, table } from '../html.js';
import { targetHealthBadge, targetRole, targetStatusBadge, targetUrlForView } from '../target-status.js';
import { needs } from '../route-authority.js';

/** The page reloads itself without script (the Content-Security-Policy allows none): about two collector rounds. */
const STATUS_REFRESH_SECONDS = 30;

/** `/`: a landing page with the targets, the state of each collector, and the extra sections. */
export function registerStatusRoute(app: FastifyInstance, daemon: DaemonView, basicAuth: boolean): void {
  app.get('/', needs('read'), async (request, reply) =>
    reply.type('text/html; charset=utf-8').send(renderStatusPage(daemon, { detailed: isTrustedReader(request, basicAuth) })),
  );
}

/** Said where it is seen first: data older than it should be is late, never silently old. */
function lagNotice(daemon: DaemonView): string {
  const lagging = daemon.laggingCollectors();
  return lagging === 0
    ? ''
    : ` &middot; <span class="badge warning">collection behind: ${lagging} collectors have not succeeded for two of their intervals</span>`;
}

export function renderStatusPage(daemon: DaemonView, view: StatusView): string {
  const targets = daemon.config.targets.map((target) => [
    // The anchor alerts link to as their generatorURL.
    `<span id="target-${escapeHtml(encodeURIComponent(target.name))}">${escapeHtml(target.name)}</span>`,
    escapeHtml(targetUrlForView(target.url, view)),
    targetStatusBadge(daemon, target.name),
    targetHealthBadge(daemon, target.name),
    escapeHtml(targetRole(daemon, target.name)),
  ]);
  const collectors = [...daemon.collectorStates.values()].map((state) => {
    const status = daemon.self.collectorStatus(state.target, state.collector);
    return [
      escapeHtml(state.target),
      escapeHtml(state.collector),
      badge(status?.success, 'ok', 'failing'),
      escapeHtml(status?.lastSuccessSeconds ? new Date(status.lastSuccessSeconds * 1000).toISOString() : 'never'),
      escapeHtml(status ? `${(status.durationSeconds * 1000).toFixed(0)} ms` : '-'),
      escapeHtml(String(status?.skippedRuns ?? 0)),
      escapeHtml(String(status?.abandonedRuns ?? 0)),
      escapeHtml(errorForView(state.lastError, view, scrubSecrets)),
    ];
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>avaxmon</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${STATUS_REFRESH_SECONDS}">
<link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#1d1d1f}h1{margin:0 0 .25rem}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;width:100%}th,td{border-bottom:1px solid #ddd;padding:.35rem .75rem;text-align:left;font-size:.9rem;overflow-wrap:anywhere}
th{background:#f5f5f7}.badge{padding:.1rem .5rem;border-radius:.6rem;font-size:.8rem;color:#fff}.ok{background:#1a7f37}.bad{background:#cf222e}.unknown{background:#6e7781}
.warning{background:#bf8700}.info{background:#0969da}.empty{color:#6e7781}nav a{margin-right:1rem}
</style></head><body>
<h1>avaxmon</h1><p>version ${escapeHtml(VERSION)} (${escapeHtml(REVISION)}) &middot; ${daemon.isReady() ? 'ready' : `not ready: ${escapeHtml(daemon.notReadyReason())}`}${lagNotice(daemon)}</p>
<nav><a href="/metrics">Metrics</a><a href="/-/healthy">Health</a><a href="/-/ready">Readiness</a></nav>
<h2>Targets</h2>
${table(['target', 'url', 'reachable', 'health', 'role'], targets, 'No targets configured.')}
<h2>Collectors</h2>
${table(['target', 'collector', 'last run', 'last success', 'duration', 'skipped ticks', 'abandoned runs', 'last error'], collectors, 'No collectors scheduled yet.')}
${daemon.statusSections.map((section) => section(view)).join('\n')}
</body></html>
`;
}
