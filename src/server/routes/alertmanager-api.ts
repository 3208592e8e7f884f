import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AlertPlane } from '../../alerts/alert-plane.js';
import { generatorUrl } from '../../alerts/dispatch/notify/payload.js';
import { matchesAll, matchesValue, type Matcher } from '../../alerts/matchers/matchers.js';
import { routes } from '../../alerts/dispatch/route/routing.js';
import { FILTER_LIMITS, FilterBudget, FilterBusyError, FilterError } from '../filter-budget.js';
import { SilenceListing } from '../silence-listing.js';
import {
  opOf,
  SILENCE_LIMITS,
  SilenceError,
  type PostableSilence,
  type Silence,
  type SilenceState,
} from '../../alerts/dispatch/silence/silences.js';
import { needs } from '../route-authority.js';

/** The part of Alertmanager's API v2 that amtool needs for silences, and the active alerts. */
export function registerAlertmanagerApi(app: FastifyInstance, alerting: () => AlertPlane | undefined): void {
  const filterBudget = new FilterBudget();
  const listing = new SilenceListing();
  const withAlerting = async (reply: FastifyReply, handle: (alerting: AlertPlane) => unknown) => {
    const current = alerting();
    if (!current)
      return reply.code(404).type('application/json').send(JSON.stringify('the alert engine is off: the config has no alerts: section'));
    try {
      return await handle(current);
    } catch (error) {
      if (error instanceof SilenceError || error instanceof FilterError)
        return reply.code(400).type('application/json').send(JSON.stringify(error.message));
      if (error instanceof FilterBusyError) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(FILTER_LIMITS.refusalDelayMs, error.retryAfterSeconds * 1000)));
        return reply
          .code(429)
          .header('retry-after', String(error.retryAfterSeconds))
          .type('application/json')
          .send(JSON.stringify(error.message));
      }
      throw error;
    }
  };

  app.get<{ Querystring: { filter?: string | string[]; active?: string; expired?: string; pending?: string } }>(
    '/api/v2/silences',
    needs('read'),
    (request, reply) =>
      withAlerting(reply, async (current) => {
        const shown = {
          active: request.query.active !== 'false',
          expired: request.query.expired !== 'false',
          pending: request.query.pending !== 'false',
        };
        const everyState = shown.active && shown.expired && shown.pending;
        if (request.query.filter === undefined && everyState) {
          const nowMs = current.clock.now();
          const body = listing.body(current.silences, nowMs, () => JSON.stringify(current.silences.list(nowMs).map(gettableSilence)));
          return reply.type('application/json').send(body);
        }
        const matching = await filterBudget.run(request.ip, textsOf(request.query.filter), (filter, deadline) =>
          current.silences.list().filter((silence) => {
            deadline.check();
            return shown[silence.state] && silenceMatchesFilter(silence, filter);
          }),
        );
        return matching.map(gettableSilence);
      }),
  );

  app.post<{ Body: PostableSilence; Querystring: { allow_match_all?: string } }>(
    '/api/v2/silences',
    { ...needs('silences'), bodyLimit: SILENCE_BODY_LIMIT },
    (request, reply) =>
      withAlerting(reply, (current) => {
        if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body))
          throw new SilenceError('body: must be a JSON silence');
        // As in Alertmanager: an update of a silence it does not have is 404, not a bad request.
        const { id } = request.body;
        if (typeof id === 'string' && !current.silences.get(id)) return silenceNotFound(reply, id);
        return {
          silenceID: current.silences.upsert(request.body, current.clock.now(), {
            allowMatchAll: request.query.allow_match_all === 'true',
          }),
        };
      }),
  );

  app.get<{ Params: { id: string } }>('/api/v2/silence/:id', needs('read'), (request, reply) =>
    withAlerting(reply, (current) => {
      const silence = current.silences.get(request.params.id);
      return silence ? gettableSilence(silence) : silenceNotFound(reply, request.params.id);
    }),
  );

  app.delete<{ Params: { id: string } }>('/api/v2/silence/:id', needs('silences'), (request, reply) =>
    withAlerting(reply, (current) =>
      current.silences.expire(request.params.id) ? reply.code(200).send() : silenceNotFound(reply, request.params.id),
    ),
  );

  app.get<{
    Querystring: { filter?: string | string[]; receiver?: string | string[]; active?: string; silenced?: string; inhibited?: string };
  }>('/api/v2/alerts', needs('read'), (request, reply) =>
    withAlerting(reply, (current) => {
      const show = {
        active: request.query.active !== 'false',
        silenced: request.query.silenced !== 'false',
        inhibited: request.query.inhibited !== 'false',
      };
      const filterTexts = textsOf(request.query.filter);
      const receiver = textsOf(request.query.receiver)[0];
      // The receiver regex is compiled and paid for as one more matcher of the filter; the budget
      // is asked first, so a client past it costs no listing.
      const texts = receiver === undefined ? filterTexts : [...filterTexts, { param: 'receiver', text: receiverMatcherText(receiver) }];
      return filterBudget.run(request.ip, texts, (matchers, deadline) => {
        const filter = matchers.slice(0, filterTexts.length);
        const receiverMatcher = matchers[filterTexts.length];
        return gettableAlerts(current).filter((alert) => {
          deadline.check();
          if (!matchesAll(filter, alert.labels)) return false;
          if (receiverMatcher && !alert.receivers.some(({ name }) => matchesValue(receiverMatcher, name))) return false;
          if (alert.status.silencedBy.length > 0) return show.silenced;
          if (alert.status.inhibitedBy.length > 0) return show.inhibited;
          return show.active;
        });
      });
    }),
  );
}

/**
 * `receiver=REGEX` as a matcher on the receiver's name: anchored at both ends, as Alertmanager
 * compiles it (`^(?:REGEX)$`), and quoted as the matcher parser reads it.
 */
function receiverMatcherText(regex: string): string {
  return `receiver=~"${regex.replace(/[\\"]/g, '\\$&')}"`;
}

function silenceNotFound(reply: FastifyReply, id: string): FastifyReply {
  return reply
    .code(404)
    .type('application/json')
    .send(JSON.stringify(`silence ${id} not found`));
}

/** Room for a silence at its size limit, JSON-escaped; fastify refuses larger bodies with 413 before parsing. */
const SILENCE_BODY_LIMIT = 4 * SILENCE_LIMITS.maxSizeBytes;
function textsOf(filter: string | string[] | undefined): string[] {
  return filter === undefined ? [] : Array.isArray(filter) ? filter : [filter];
}

/** As in Alertmanager: every filter matcher must be met by a matcher of the silence on the same label. */
function silenceMatchesFilter(silence: Silence, filter: readonly Matcher[]): boolean {
  return filter.every((wanted) => silence.matchers.some((matcher) => matcher.name === wanted.name && matchesValue(wanted, matcher.value)));
}

/**
 * A silence as the spec's `gettableSilence`, which since Alertmanager 0.32 requires `annotations`:
 * avaxmon keeps none, so they are empty.
 */
function gettableSilence(silence: Silence & { state: SilenceState }): Record<string, unknown> {
  const { state, ...rest } = silence;
  return {
    ...rest,
    annotations: {},
    matchers: silence.matchers.map((matcher) => ({ ...matcher, isEqual: opOf(matcher) === '=' || opOf(matcher) === '=~' })),
    status: { state },
  };
}

interface GettableAlert {
  labels: Readonly<Record<string, string>>;
  receivers: Array<{ name: string }>;
  status: { state: 'active' | 'suppressed'; silencedBy: string[]; inhibitedBy: string[]; mutedBy: string[] };
  [key: string]: unknown;
}

/** The firing alerts, as Alertmanager lists them: pending ones are not alerts yet. */
function gettableAlerts(alerting: AlertPlane): GettableAlert[] {
  const nowMs = alerting.clock.now();
  const updatedAt = new Date(nowMs).toISOString();
  return alerting
    .activeAlerts()
    .filter((alert) => alert.state === 'firing')
    .map((alert) => {
      const silencedBy = alerting.silences.silencing(alert.labels, nowMs);
      const { muted } = alerting.verdicts.verdictOn(alert.fingerprint);
      const inhibitedBy = muted?.startsWith('inhibited') ? [muted] : [];
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
        // mutedBy (time intervals) is filled in only by Alertmanager's /alerts/groups; its /alerts sends it empty.
        status: { state: silencedBy.length > 0 || inhibitedBy.length > 0 ? 'suppressed' : 'active', silencedBy, inhibitedBy, mutedBy: [] },
      };
    });
}
