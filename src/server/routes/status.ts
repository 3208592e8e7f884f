import type { FastifyInstance } from 'fastify';
import { errorForView, type DaemonView, type StatusView } from '../daemon-view.js';
import { isTrustedReader } from '../trusted-client.js';
import { scrubSecrets } from '../../config/redact.js';
import { REVISION, VERSION } from '../../runtime/version.js';
import { badge, escapeHtml, table } from '../html.js';
import { targetHealthBadge, targetRole, targetStatusBadge, targetUrlForView } from '../target-status.js';
import { needs } from '../route-authority.js';

/** The page reloads itself without script (the Content-Security-Policy allows none): about two collector rounds. */
const STATUS_REFRESH_SECONDS = 30;
/** Up to this many targets the page shows every row by default; a larger fleet shows its problems first and folds the rest. */
const SMALL_FLEET = 25;
/** Rows a table shows at most; past them a line says how many more and how to narrow the view. */
const MAX_ROWS = 1_000;

/** What the page shows: every row, or only the problems (`?state=`), of every target or one (`?target=`). */
export interface StatusQuery {
  readonly state?: string;
  readonly target?: string;
}

/** `/`: a summary, then the problems (down targets, failing collectors, firing alerts), healthy rows folded for a fleet. */
export function registerStatusRoute(app: FastifyInstance, daemon: DaemonView, basicAuth: boolean): void {
  app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/', needs('read'), async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(renderStatusPage(daemon, { detailed: isTrustedReader(request, basicAuth) }, oneValue(request.query))),
  );
}

/** A repeated query parameter counts once, as its first value. */
function oneValue(query: Record<string, unknown>): StatusQuery {
  const first = (value: unknown) => (Array.isArray(value) ? value[0] : value) as string | undefined;
  return { state: first(query.state), target: first(query.target) };
}

/** Said where it is seen first: data older than it should be is late, never silently old. */
function lagNotice(daemon: DaemonView): string {
  const lagging = daemon.laggingCollectors();
  return lagging === 0
    ? ''
    : ` &middot; <span class="badge warning">collection behind: ${lagging} collectors have not succeeded for two of their intervals</span>`;
}

interface TargetRow {
  readonly name: string;
  readonly url: string;
  readonly up: boolean | undefined;
  readonly failingCollectors: number;
  /** The node's own word (avaxmon_node_healthy 0): reachable, yet unhealthy. */
  readonly unhealthy: boolean;
}

function targetRows(daemon: DaemonView): TargetRow[] {
  const failing = new Map<string, number>();
  for (const state of daemon.collectorStates.values()) {
    if (daemon.self.collectorStatus(state.target, state.collector)?.success === false) {
      failing.set(state.target, (failing.get(state.target) ?? 0) + 1);
    }
  }
  return daemon.config.targets.map((target) => ({
    name: target.name,
    url: target.url,
    up: daemon.self.isTargetUp(target.name),
    failingCollectors: failing.get(target.name) ?? 0,
    unhealthy: daemon.snapshot.samplesOf(target.name).some((sample) => sample.name === 'avaxmon_node_healthy' && sample.value === 0),
  }));
}

const isProblem = (row: TargetRow) => rank(row) < 3;

/** Targets up, down and unknown; failing collectors; firing alerts by severity. */
function summary(daemon: DaemonView, rows: readonly TargetRow[]): string {
  const up = rows.filter((row) => row.up === true).length;
  const down = rows.filter((row) => row.up === false).length;
  const failing = rows.reduce((sum, row) => sum + row.failingCollectors, 0);
  const firing = new Map<string, number>();
  for (const alert of daemon.alerting?.activeAlerts() ?? []) {
    if (alert.state === 'firing') firing.set(alert.labels.severity, (firing.get(alert.labels.severity) ?? 0) + 1);
  }
  const count = (n: number, word: string, cls: string) => `<span class="badge ${n > 0 ? cls : 'unknown'}">${n} ${word}</span>`;
  const alerts = daemon.alerting
    ? ['critical', 'warning', 'info']
        .map((severity) => count(firing.get(severity) ?? 0, severity, severity === 'critical' ? 'bad' : severity))
        .join(' ')
    : '<span class="empty">alert engine off</span>';
  return `<p class="summary"><b>Targets</b> ${count(up, 'up', 'ok')} ${count(down, 'down', 'bad')} ${count(rows.length - up - down, 'unknown', 'unknown')}
 &middot; <b>Collectors failing</b> ${count(failing, `of ${daemon.collectorStates.size}`, 'bad')}
 &middot; <b>Alerts firing</b> ${alerts}</p>`;
}

/** The links that switch the view; plain links, as the page runs no script and submits no form. */
function filters(showAll: boolean, query: StatusQuery, hidden: number): string {
  const current = query.target ? ` &middot; target <b>${escapeHtml(query.target)}</b> (<a href="./">all targets</a>)` : '';
  const toggle = showAll
    ? '<a href="?state=problems">problems only</a>'
    : `${hidden} healthy target${hidden === 1 ? '' : 's'} folded: <a href="?state=all">show all</a>`;
  return `<p class="filters">Showing ${showAll ? 'every row' : 'problems first'} &middot; ${toggle}${current}</p>`;
}

function capped<T>(rows: readonly T[], what: string): { rows: readonly T[]; note: string } {
  if (rows.length <= MAX_ROWS) return { rows, note: '' };
  return {
    rows: rows.slice(0, MAX_ROWS),
    note: `<p class="empty">${rows.length - MAX_ROWS} more ${what}: narrow with <code>?target=NAME</code> or <code>?state=problems</code>.</p>`,
  };
}

export function renderStatusPage(daemon: DaemonView, view: StatusView, query: StatusQuery = {}): string {
  const all = targetRows(daemon);
  const showAll = query.state === 'all' || (query.state !== 'problems' && (all.length <= SMALL_FLEET || query.target !== undefined));
  const selected = all.filter((row) => (query.target === undefined || row.name === query.target) && (showAll || isProblem(row)));
  // Problems first: down targets, then those with failing collectors, each group in config order.
  const ordered = [...selected].sort((a, b) => rank(a) - rank(b));
  const targets = capped(ordered, 'targets');
  const shown = new Set(selected.map((row) => row.name));
  const collectorStates = [...daemon.collectorStates.values()].filter((state) => {
    if (query.target !== undefined) return shown.has(state.target);
    // Every row, the public APIs' (target metrics_api, data_api) too.
    if (showAll) return true;
    return daemon.self.collectorStatus(state.target, state.collector)?.success === false;
  });
  const collectors = capped(
    collectorStates.sort((a, b) => Number(collectorOk(daemon, a)) - Number(collectorOk(daemon, b))),
    'collectors',
  );
  const targetCells = targets.rows.map((row) => [
    // The anchor alerts link to as their generatorURL.
    `<a id="target-${escapeHtml(encodeURIComponent(row.name))}" href="?target=${escapeHtml(encodeURIComponent(row.name))}">${escapeHtml(row.name)}</a>`,
    escapeHtml(targetUrlForView(row.url, view)),
    targetStatusBadge(daemon, row.name),
    targetHealthBadge(daemon, row.name),
    escapeHtml(targetRole(daemon, row.name)),
  ]);
  const collectorCells = collectors.rows.map((state) => {
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
  const unknownTarget = query.target !== undefined && !all.some((row) => row.name === query.target);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>avaxmon</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${STATUS_REFRESH_SECONDS}">
<link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#1d1d1f}h1{margin:0 0 .25rem}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;width:100%}th,td{border-bottom:1px solid #ddd;padding:.35rem .75rem;text-align:left;font-size:.9rem;overflow-wrap:break-word}
th{background:#f5f5f7}td:first-child{white-space:nowrap}.badge{padding:.1rem .5rem;border-radius:.6rem;font-size:.8rem;color:#fff;white-space:nowrap}.ok{background:#1a7f37}.bad{background:#cf222e}.unknown{background:#6e7781}
.warning{background:#bf8700}.info{background:#0969da}.empty{color:#6e7781}nav a{margin-right:1rem}.summary{font-size:1rem;margin:.75rem 0}.summary .badge{font-size:.9rem}
</style></head><body>
<h1>avaxmon</h1><p>version ${escapeHtml(VERSION)} (${escapeHtml(REVISION)}) &middot; ${daemon.isReady() ? 'ready' : `not ready: ${escapeHtml(daemon.notReadyReason())}`}${lagNotice(daemon)}</p>
<nav><a href="/metrics">Metrics</a><a href="/-/healthy">Health</a><a href="/-/ready">Readiness</a></nav>
${summary(daemon, all)}
${filters(showAll, query, all.filter((row) => !isProblem(row)).length)}
<h2>Targets</h2>
${unknownTarget ? `<p class="empty">No target named ${escapeHtml(query.target)}.</p>` : table(['target', 'url', 'reachable', 'health', 'role'], targetCells, showAll ? 'No targets configured.' : 'Every target is up and its collectors succeed.')}${targets.note}
<h2>Collectors</h2>
${table(['target', 'collector', 'last run', 'last success', 'duration', 'skipped ticks', 'abandoned runs', 'last error'], collectorCells, showAll ? 'No collectors scheduled yet.' : 'No collector is failing.')}${collectors.note}
${daemon.statusSections.map((section) => section(view)).join('\n')}
</body></html>
`;
}

/** Down targets first, then unhealthy ones, then those with failing collectors, then the rest. */
function rank(row: TargetRow): number {
  if (row.up === false) return 0;
  if (row.unhealthy) return 1;
  return row.failingCollectors > 0 ? 2 : 3;
}

function collectorOk(daemon: DaemonView, state: { target: string; collector: string }): boolean {
  return daemon.self.collectorStatus(state.target, state.collector)?.success !== false;
}
