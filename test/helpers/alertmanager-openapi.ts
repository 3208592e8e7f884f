import { z } from 'zod';

/**
 * The response definitions of Alertmanager's API v2 that avaxmon serves, written out by hand from
 * prometheus/alertmanager's api/v2/openapi.yaml as of v0.34.0 (commit 68fb2d5, August 2026): each
 * definition's required fields, their types, enums and formats. Fields the spec leaves optional are
 * checked only when present. Extra fields pass, as go-swagger clients ignore them.
 *
 * Kept to the newest spec on purpose: it requires more than older ones (`alertStatus.mutedBy` since
 * v0.28, `gettableSilence.annotations` since v0.32), and what satisfies it satisfies the older
 * clients, such as Debian's amtool 0.25.
 */

/** swagger `format: date-time`: RFC 3339 with a zone, as go-openapi's strfmt.DateTime parses it. */
const dateTime = z.iso.datetime({ offset: true });
const labelSet = z.record(z.string(), z.string());

export const alertmanagerStatus = z.object({
  cluster: z.object({
    name: z.string().optional(),
    status: z.enum(['ready', 'settling', 'disabled']),
    peers: z.array(z.object({ name: z.string(), address: z.string() })).optional(),
  }),
  versionInfo: z.object({
    version: z.string(),
    revision: z.string(),
    branch: z.string(),
    buildUser: z.string(),
    buildDate: z.string(),
    goVersion: z.string(),
  }),
  config: z.object({ original: z.string() }),
  uptime: dateTime,
});

const matcher = z.object({ name: z.string(), value: z.string(), isRegex: z.boolean(), isEqual: z.boolean().optional() });

export const gettableSilence = z.object({
  id: z.string(),
  status: z.object({ state: z.enum(['expired', 'active', 'pending']) }),
  updatedAt: dateTime,
  annotations: labelSet,
  matchers: z.array(matcher).min(1),
  startsAt: dateTime,
  endsAt: dateTime,
  createdBy: z.string(),
  comment: z.string(),
});

export const gettableSilences = z.array(gettableSilence);

/** postSilences' 200 answer; the path's `silenceID` parameter is `format: uuid`. */
export const postSilencesAnswer = z.object({ silenceID: z.uuid() });

export const gettableAlert = z.object({
  labels: labelSet,
  /** `format: uri`; Alertmanager itself sends "" for an alert posted without one. */
  generatorURL: z.union([z.url(), z.literal('')]).optional(),
  annotations: labelSet,
  receivers: z.array(z.object({ name: z.string() })),
  fingerprint: z.string(),
  startsAt: dateTime,
  updatedAt: dateTime,
  endsAt: dateTime,
  status: z.object({
    state: z.enum(['unprocessed', 'active', 'suppressed']),
    silencedBy: z.array(z.string()),
    inhibitedBy: z.array(z.string()),
    mutedBy: z.array(z.string()),
  }),
});

export const gettableAlerts = z.array(gettableAlert);

/** The spec's BadRequest and the postSilences 404: a JSON string. */
export const errorAnswer = z.string().min(1);
