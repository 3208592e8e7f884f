import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Alerting } from '../../alerts/alerting.js';
import { generatorUrl } from '../../alerts/alert.js';
import { matchesAll, parseMatcher, type Matcher } from '../../alerts/silencing/matchers.js';
import { routes } from '../../alerts/delivery/routing.js';
import {
  SILENCE_LIMITS,
  SilenceError,
  toMatcher,
  type PostableSilence,
  type Silence,
  type SilenceState,
} from '../../alerts/silencing/silences.js';

/** The part of Alertmanager's API v2 that amtool needs for silences, and the active alerts. */
export function registerAlertmanagerApi(app: FastifyInstance, alerting: () => Alerting | undefined): void {
  const withAlerting = async (reply: FastifyReply, handle: (alerting: Alerting) => unknown) => {
    const current = alerting();
    if (!current)
      return reply.code(404).type('application/json').send(JSON.stringify('the alert engine is off: the config has no alerts: section'));
    try {
      return await handle(current);
    } catch (error) {
      if (error instanceof SilenceError || error instanceof FilterError)
        return reply.code(400).type('application/json').send(JSON.stringify(error.message));
      throw error;
    }
  };

  app.get<{ Querystring: { filter?: string | string[] } }>('/api/v2/silences', (request, reply) =>
    withAlerting(reply, (current) => {
      const filter = filterOf(request.query.filter);
      return current.silences
        .list()
        .filter((silence) => silenceMatchesFilter(silence, filter))
        .map(gettableSilence);
    }),
  );

  app.post<{ Body: PostableSilence; Querystring: { allow_match_all?: string } }>(
    '/api/v2/silences',
    { bodyLimit: SILENCE_BODY_LIMIT },
    (request, reply) =>
      withAlerting(reply, (current) => {
        if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body))
          throw new SilenceError('body: must be a JSON silence');
        return {
          silenceID: current.silences.upsert(request.body, current.clock.now(), {
            allowMatchAll: request.query.allow_match_all === 'true',
          }),
        };
      }),
  );

  app.get<{ Params: { id: string } }>('/api/v2/silence/:id', (request, reply) =>
    withAlerting(reply, (current) => {
      const silence = current.silences.get(request.params.id);
      return silence
        ? gettableSilence(silence)
        : reply
            .code(404)
            .type('application/json')
            .send(JSON.stringify(`silence ${request.params.id} not found`));
    }),
  );

  app.delete<{ Params: { id: string } }>('/api/v2/silence/:id', (request, reply) =>
    withAlerting(reply, (current) =>
      current.silences.expire(request.params.id)
        ? reply.code(200).send()
        : reply
            .code(404)
            .type('application/json')
            .send(JSON.stringify(`silence ${request.params.id} not found`)),
    ),
  );

  app.get<{ Querystring: { filter?: string | string[]; active?: string; silenced?: string; inhibited?: string } }>(
    '/api/v2/alerts',
    (request, reply) =>
      withAlerting(reply, (current) => {
        const filter = filterOf(request.query.filter);
        const show = {
          active: request.query.active !== 'false',
          silenced: request.query.silenced !== 'false',
          inhibited: request.query.inhibited !== 'false',
        };
        return gettableAlerts(current).filter((alert) => {
          if (!matchesAll(filter, alert.labels)) return false;
          if (alert.status.silencedBy.length > 0) return show.silenced;
          if (alert.status.inhibitedBy.length > 0) return show.inhibited;
          return show.active;
        });
      }),
  );
}

/** Room for a silence at its size limit, JSON-escaped; fastify refuses larger bodies with 413 before parsing. */
const SILENCE_BODY_LIMIT = 4 * SILENCE_LIMITS.maxSizeBytes;
/** Filters are matchers like a silence's, and as many. */
const MAX_FILTERS = SILENCE_LIMITS.maxMatchers;

class FilterError extends Error {}

function filterOf(filter: string | string[] | undefined): Matcher[] {
  const texts = filter === undefined ? [] : Array.isArray(filter) ? filter : [filter];
  if (texts.length > MAX_FILTERS) throw new FilterError(`filter: at most ${MAX_FILTERS} matchers`);
  return texts.map((text) => {
    try {
      return parseMatcher(text);
    } catch (error) {
      throw new FilterError(`filter: ${(error as Error).message}`);
    }
  });
}

/** As in Alertmanager: every filter matcher must be met by a matcher of the silence on the same label. */
function silenceMatchesFilter(silence: Silence, filter: readonly Matcher[]): boolean {
  return filter.every((wanted) =>
    silence.matchers.some((matcher) => matcher.name === wanted.name && matchesAll([wanted], { [wanted.name]: matcher.value })),
  );
}

function gettableSilence(silence: Silence & { state: SilenceState }): Record<string, unknown> {
  const { state, ...rest } = silence;
  return {
    ...rest,
    matchers: silence.matchers.map((matcher) => ({ ...matcher, isEqual: toMatcher(matcher).op === '=' || toMatcher(matcher).op === '=~' })),
    status: { state },
  };
}

interface GettableAlert {
  labels: Readonly<Record<string, string>>;
  status: { state: 'active' | 'suppressed'; silencedBy: string[]; inhibitedBy: string[] };
  [key: string]: unknown;
}

/** The firing alerts, as Alertmanager lists them: pending ones are not alerts yet. */
function gettableAlerts(alerting: Alerting): GettableAlert[] {
  const nowMs = alerting.clock.now();
  const updatedAt = new Date(nowMs).toISOString();
  return alerting
    .activeAlerts()
    .filter((alert) => alert.state === 'firing')
    .map((alert) => {
      const silencedBy = alerting.silences.silencing(alert.labels, nowMs);
      const inhibitedBy = alert.muted?.startsWith('inhibited') ? [alert.muted] : [];
      return {
        labels: alert.labels,
        annotations: alert.annotations,
        startsAt: new Date(alert.activeSinceMs).toISOString(),
        // Like a firing alert posted by Prometheus: it ends unless re-sent.
        endsAt: new Date(nowMs + 4 * 60_000).toISOString(),
        updatedAt,
        generatorURL: generatorUrl(alerting.config.externalUrl, alert.labels) ?? '',
        fingerprint: alert.fingerprint,
        // By Alertmanager receiver name: one per receiver, however many routes and integrations reach it.
        receivers: [
          ...new Set(
            alerting.config.receivers
              .filter((receiver) => routes(receiver, alert.labels))
              .map((receiver) => receiver.receiver ?? receiver.name),
          ),
        ].map((name) => ({ name })),
        status: { state: silencedBy.length > 0 || inhibitedBy.length > 0 ? 'suppressed' : 'active', silencedBy, inhibitedBy },
      };
    });
}
