import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlertPlane } from '../../../src/alerts/alert-plane.js';
import { parseConfig } from '../../../src/config/load.js';
import type { Sample } from '../../../src/metrics/metric-desc.js';
import { ALERTMANAGER, startRealSystem, type RealSystem } from '../../helpers/real-systems.js';
import { silentLog } from '../harness.js';
import { startRecorder, type Recorder } from '../recorder.js';

/**
 * One alert stream through avaxmon and through the real Alertmanager, both configured from the same
 * `route`/`receivers`/`inhibit_rules`/`time_intervals` text, and both notifying a webhook recorder:
 * avaxmon evaluates its rules over the scenario's samples, and Alertmanager is fed avaxmon's
 * firing alerts as Prometheus feeds it (re-sent every FEED_MS with endsAt ahead, ended once).
 */

/** How often avaxmon evaluates and Alertmanager is fed. */
export const FEED_MS = 250;

/** Holds the samples a feed step at a time until `done`, failing after `capMs`. */
export async function holdUntil(
  hold: (samples: readonly Sample[], holdMs: number) => Promise<void>,
  samples: readonly Sample[],
  done: () => boolean,
  capMs = 60_000,
): Promise<void> {
  for (const cap = Date.now() + capMs; !done(); ) {
    if (Date.now() > cap) throw new Error(`holdUntil: not done after ${capMs} ms`);
    await hold(samples, FEED_MS);
  }
}
/** The placeholder of the webhook URL in a scenario's config; each side gets its own recorder. */
export const HOOK = 'HOOK_URL';

export interface Webhook {
  readonly receiver: string;
  readonly status: string;
  readonly groupKey: string;
  readonly groupLabels: Record<string, string>;
  readonly commonLabels: Record<string, string>;
  readonly commonAnnotations: Record<string, string>;
  readonly truncatedAlerts: number;
  readonly alerts: ReadonlyArray<{
    status: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    startsAt: string;
    fingerprint: string;
  }>;
}

/** Everything a bridge reads, but the times a notification was rendered at (endsAt; see docs/alerting.md). */
export function comparable(body: Webhook) {
  return {
    receiver: body.receiver,
    status: body.status,
    groupKey: body.groupKey,
    groupLabels: body.groupLabels,
    commonLabels: body.commonLabels,
    commonAnnotations: body.commonAnnotations,
    truncatedAlerts: body.truncatedAlerts,
    alerts: body.alerts.map(({ status, labels, annotations, startsAt, fingerprint }) => ({
      status,
      labels,
      annotations,
      startsAt,
      fingerprint,
    })),
  };
}

export interface Side {
  readonly hook: Recorder;
  /** Webhook bodies received, in order, without the times. */
  notifications(): Array<ReturnType<typeof comparable>>;
}

export interface Differential {
  readonly ours: Side & { alerting: AlertPlane; readonly stateDir: string };
  readonly theirs: Side & { readonly alertmanager: RealSystem };
  /** Evaluates `samples` and feeds Alertmanager every FEED_MS for `holdMs`. */
  hold(samples: readonly Sample[], holdMs: number): Promise<void>;
  /** Like hold, until `done` (both sides' notifications, say) holds; fails after `capMs`. */
  holdUntil(samples: readonly Sample[], done: () => boolean, capMs?: number): Promise<void>;
  /** Makes both webhooks answer `status` (500: a failing receiver). */
  answer(status: number): void;
  /** The same silence in both, from now for `durationMs`; returns a function that expires it in both. */
  silence(matchers: Record<string, string>, durationMs: number): Promise<() => Promise<void>>;
  /** Stops avaxmon and starts it again on the same state_dir, as after a crash or an upgrade. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `routing`: the alertmanager.yml sections (route, receivers, inhibit_rules, time_intervals), with
 * HOOK_URL where the webhook goes. `alerts`: avaxmon's other settings under `alerts:` (rules).
 */
export async function startDifferential(routing: string, alerts: string): Promise<Differential> {
  const [ourHook, theirHook] = [await startRecorder(), await startRecorder()];
  const alertmanager = await startReferenceAlertmanager(routing, theirHook.url);
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-differential-'));
  const config = () =>
    parseConfig(
      `alerts:\n  state_dir: ${stateDir}\n  retry: { initial_backoff: 100ms, max_backoff: 500ms }\n${indent(alerts)}\n${indent(
        routing.replaceAll(HOOK, `${ourHook.url}/hook`),
      )}`,
    ).alerts!;
  let alerting = new AlertPlane(config(), silentLog);
  const feed = prometheusFeeder(alertmanager.url, () => alerting);
  const differential: Differential = {
    ours: {
      ...side(ourHook),
      get alerting() {
        return alerting;
      },
      stateDir,
    },
    theirs: { ...side(theirHook), alertmanager },
    async hold(samples, holdMs) {
      for (const end = Date.now() + holdMs; Date.now() < end; ) {
        alerting.evaluate(samples, Date.now());
        await feed();
        await new Promise((resolve) => setTimeout(resolve, FEED_MS));
      }
    },
    holdUntil: (samples, done, capMs) => holdUntil(differential.hold, samples, done, capMs),
    answer(status) {
      for (const hook of [ourHook, theirHook]) hook.respond = () => ({ status, body: '{}' });
    },
    async silence(labels, durationMs) {
      const posted = silenceOf(labels, durationMs);
      const ours = alerting.silences.upsert(posted);
      const expireTheirs = await postSilence(alertmanager.url, posted);
      return async () => {
        alerting.silences.expire(ours);
        await expireTheirs();
      };
    },
    async restart() {
      await alerting.stop(0);
      alerting = new AlertPlane(config(), silentLog);
    },
    async close() {
      await alerting.stop(0);
      await alertmanager.stop();
      await ourHook.close();
      await theirHook.close();
    },
  };
  return differential;
}

/** A real Alertmanager alone (no cluster) loading `routing`, its webhooks going to `hookUrl`/hook. */
export function startReferenceAlertmanager(routing: string, hookUrl: string): Promise<RealSystem> {
  return startRealSystem(ALERTMANAGER, { 'alertmanager.yml': routing.replaceAll(HOOK, `${hookUrl}/hook`) }, (dir, listen) => [
    '--config.file=alertmanager.yml',
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=${listen}`,
    '--cluster.listen-address=',
  ]);
}

/**
 * Feeds Alertmanager at `url` the firing alerts of `alerting()` as Prometheus does: each call sends
 * every firing alert with endsAt 10 s ahead, and once with endsAt now an alert that stopped firing.
 */
export function prometheusFeeder(url: string, alerting: () => AlertPlane): () => Promise<void> {
  const fed = new Map<string, { labels: Record<string, string>; annotations: Record<string, string>; startsAt: string }>();
  return async () => {
    const nowMs = Date.now();
    const current = new Map(
      alerting()
        .engine.active()
        .filter((alert) => alert.state === 'firing')
        .map((alert) => [
          JSON.stringify(alert.labels),
          { labels: { ...alert.labels }, annotations: { ...alert.annotations }, startsAt: new Date(alert.activeSinceMs).toISOString() },
        ]),
    );
    const ended = [...fed].filter(([key]) => !current.has(key)).map(([, alert]) => ({ ...alert, endsAt: new Date(nowMs).toISOString() }));
    const active = [...current.values()].map((alert) => ({ ...alert, endsAt: new Date(nowMs + 10_000).toISOString() }));
    fed.clear();
    for (const [key, alert] of current) fed.set(key, alert);
    const response = await fetch(`${url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([...active, ...ended]),
    });
    if (response.status !== 200) throw new Error(`Alertmanager refused the alerts: ${response.status} ${await response.text()}`);
  };
}

export function side(hook: Recorder): Side {
  return { hook, notifications: () => hook.requests.map((request) => comparable(request.json as Webhook)) };
}

export interface PostedSilence {
  readonly matchers: ReadonlyArray<{ name: string; value: string; isRegex: boolean; isEqual: boolean }>;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly createdBy: string;
  readonly comment: string;
}

/** A silence of `labels` from now for `durationMs`, as amtool posts it. */
export function silenceOf(labels: Record<string, string>, durationMs: number): PostedSilence {
  return {
    matchers: Object.entries(labels).map(([name, value]) => ({ name, value, isRegex: false, isEqual: true })),
    startsAt: new Date().toISOString(),
    endsAt: new Date(Date.now() + durationMs).toISOString(),
    createdBy: 'differential',
    comment: 'the same silence on both sides',
  };
}

/** Posts `silence` to the Alertmanager at `url`; returns a function that expires it there. */
export async function postSilence(url: string, silence: PostedSilence): Promise<() => Promise<void>> {
  const response = await fetch(`${url}/api/v2/silences`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(silence),
  });
  if (response.status !== 200) throw new Error(`Alertmanager refused the silence: ${response.status} ${await response.text()}`);
  const { silenceID } = (await response.json()) as { silenceID: string };
  return async () => {
    await fetch(`${url}/api/v2/silence/${silenceID}`, { method: 'DELETE' });
  };
}

export function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? line : `  ${line}`))
    .join('\n');
}
