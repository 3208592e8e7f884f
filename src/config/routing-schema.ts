import { z } from 'zod';
import { compareMatchers, Route, type RouteOptions } from '../alerts/dispatch/route/route.js';
import { knownLocation, parseClock, parseRange, type TimeInterval } from '../alerts/dispatch/time-mute/time-interval.js';
import { buildMatcher, parseMatcher, parseMatchers, type Matcher } from '../alerts/matchers/matchers.js';
import type { ConfigIssue } from '../errors.js';
import { durationMs, httpUrl } from './fields.js';
import { httpConfigFields } from './http-config-schema.js';
import { emailConfigSchema, emailFields, type EmailFields } from './email-schema.js';
import { opsgenieConfigSchema, opsgenieFields, type OpsgenieFields } from './opsgenie-schema.js';

/**
 * The parts of an alertmanager.yml that an operator pastes under `alerts:` with their own key names:
 * `route`, Alertmanager-shaped `receivers` (webhook_configs, slack_configs, pagerduty_configs,
 * telegram_configs, discord_configs), `time_intervals` and `inhibit_rules` (see alerts-schema.ts).
 */

/** Alertmanager's matcher list item: one matcher (`severity="critical"`, `severity=critical`) or several (`{a="1", b!="2"}`). */
const matchersText = z.string().transform((text, ctx) => {
  try {
    return parseMatchers(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** Alertmanager's matcher list: each item's matchers, in order. */
export const matcherList = z.array(matchersText).transform((lists) => lists.flat());

const labelNameKey = /^[A-Za-z_][A-Za-z0-9_]*$/;
const groupLabel = z.string().regex(/^([A-Za-z_][A-Za-z0-9_]*|\.\.\.)$/, 'must be a label name or "..."');

export interface RouteInput {
  receiver?: string;
  group_by?: string[];
  continue?: boolean;
  matchers?: Matcher[];
  match?: Record<string, string>;
  match_re?: Record<string, string>;
  group_wait?: number;
  group_interval?: number;
  repeat_interval?: number;
  mute_time_intervals?: string[];
  active_time_intervals?: string[];
  routes?: RouteInput[];
}

export const routeSchema: z.ZodType<RouteInput, unknown> = z.lazy(() =>
  z
    .object({
      receiver: z.string().min(1).optional(),
      group_by: z.array(groupLabel).optional(),
      continue: z.boolean().optional(),
      matchers: matcherList.optional(),
      /** Deprecated in Alertmanager, still read: equality and regex matchers by label name. */
      match: z.record(z.string().regex(labelNameKey, 'must be a label name'), z.string()).optional(),
      match_re: z.record(z.string().regex(labelNameKey, 'must be a label name'), z.string()).optional(),
      group_wait: durationMs.optional(),
      group_interval: durationMs.optional(),
      repeat_interval: durationMs.optional(),
      mute_time_intervals: z.array(z.string().min(1)).optional(),
      active_time_intervals: z.array(z.string().min(1)).optional(),
      routes: z.array(routeSchema).optional(),
    })
    .strict(),
);

const ranges = (kind: 'weekdays' | 'days_of_month' | 'months' | 'years') =>
  z.array(
    z.string().transform((text, ctx) => {
      try {
        return parseRange(text, kind);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  );

const clock = z.string().transform((text, ctx) => {
  try {
    return parseClock(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const timeIntervalSchema = z
  .object({
    times: z
      .array(z.object({ start_time: clock, end_time: clock }).strict())
      .optional()
      .superRefine((times, ctx) => {
        for (const [index, time] of (times ?? []).entries())
          if (time.start_time >= time.end_time)
            ctx.addIssue({ code: 'custom', path: [index], message: 'start_time must be before end_time' });
      }),
    weekdays: ranges('weekdays').optional(),
    days_of_month: ranges('days_of_month').optional(),
    months: ranges('months').optional(),
    years: ranges('years').optional(),
    location: z
      .string()
      .refine((name) => name === 'Local' || knownLocation(name), 'must be an IANA time zone like Europe/Berlin, or UTC')
      .optional(),
  })
  .strict()
  .transform(
    (interval): TimeInterval => ({
      times: interval.times?.map((time) => [time.start_time, time.end_time] as const),
      weekdays: interval.weekdays,
      daysOfMonth: interval.days_of_month,
      months: interval.months,
      years: interval.years,
      // Go's "Local" is the machine's zone; Intl's default is the same.
      location: interval.location === 'Local' ? Intl.DateTimeFormat().resolvedOptions().timeZone : interval.location,
    }),
  );

export const timeIntervalsSchema = z.array(z.object({ name: z.string().min(1), time_intervals: z.array(timeIntervalSchema) }).strict());

/** Prometheus' http_config credentials, one of them per integration: sent as its Authorization header. */
const httpAuthFields = {
  authorization: z
    .object({
      type: z.string().min(1).default('Bearer'),
      credentials: z.string().min(1).optional(),
      credentials_file: z.string().min(1).optional(),
    })
    .strict()
    .optional(),
  basic_auth: z
    .object({ username: z.string().min(1), password: z.string().optional(), password_file: z.string().min(1).optional() })
    .strict()
    .optional(),
  /** Deprecated in Prometheus' http_config, still read: `authorization` with type Bearer. */
  bearer_token: z.string().min(1).optional(),
  bearer_token_file: z.string().min(1).optional(),
  /** The client-credentials grant: a token fetched from token_url and sent as its type (Bearer). */
  oauth2: z
    .object({
      client_id: z.string().min(1),
      client_secret: z.string().min(1).optional(),
      client_secret_file: z.string().min(1).optional(),
      token_url: httpUrl,
      scopes: z.array(z.string().min(1)).optional(),
      endpoint_params: z.record(z.string(), z.string()).optional(),
      /** How the token URL is reached, as Prometheus' oauth2 block has its own. */
      ...httpConfigFields,
    })
    .strict()
    .optional(),
};

export type HttpAuthInput = { [K in keyof typeof httpAuthFields]?: z.infer<(typeof httpAuthFields)[K]> };

/** Alertmanager's http_config: credentials (one kind), tls_config and proxy_url. */
const httpConfig = z
  .object({ ...httpConfigFields, ...httpAuthFields, follow_redirects: z.boolean().optional(), enable_http2: z.boolean().optional() })
  .strict();

/** Template fields: avaxmon renders its own text, so these are read and not used (docs/alerting.md). */
const templated = (...keys: string[]) => Object.fromEntries(keys.map((key) => [key, z.unknown().optional()]));

const integrationSchemas = {
  webhook_configs: z
    .object({
      url: z.string().min(1).optional(),
      url_file: z.string().min(1).optional(),
      send_resolved: z.boolean().default(true),
      max_alerts: z.number().int().min(0).default(0),
      timeout: durationMs.optional(),
      http_config: httpConfig.optional(),
    })
    .strict(),
  slack_configs: z
    .object({
      api_url: z.string().min(1).optional(),
      api_url_file: z.string().min(1).optional(),
      send_resolved: z.boolean().default(false),
      http_config: httpConfig.optional(),
      ...templated(
        'channel',
        'username',
        'color',
        'title',
        'title_link',
        'pretext',
        'text',
        'fields',
        'short_fields',
        'footer',
        'fallback',
        'callback_id',
        'icon_emoji',
        'icon_url',
        'image_url',
        'thumb_url',
        'link_names',
        'mrkdwn_in',
        'actions',
      ),
    })
    .strict(),
  pagerduty_configs: z
    .object({
      routing_key: z.string().min(1).optional(),
      routing_key_file: z.string().min(1).optional(),
      url: z.string().min(1).optional(),
      send_resolved: z.boolean().default(true),
      http_config: httpConfig.optional(),
      ...templated(
        'client',
        'client_url',
        'description',
        'details',
        'images',
        'links',
        'source',
        'severity',
        'class',
        'component',
        'group',
      ),
      service_key: z.unknown().optional(),
      service_key_file: z.unknown().optional(),
    })
    .strict()
    .superRefine((config, ctx) => {
      for (const key of ['service_key', 'service_key_file'] as const)
        if (config[key] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'PagerDuty Events API v1 is not supported: use routing_key (the integration key of an Events API v2 integration)',
          });
    }),
  opsgenie_configs: opsgenieConfigSchema(httpConfig),
  email_configs: emailConfigSchema,
  telegram_configs: z
    .object({
      bot_token: z.string().min(1).optional(),
      bot_token_file: z.string().min(1).optional(),
      chat_id: z.union([z.string().min(1), z.number()]).optional(),
      api_url: z.string().min(1).optional(),
      send_resolved: z.boolean().default(true),
      http_config: httpConfig.optional(),
      ...templated('message', 'parse_mode', 'disable_notifications', 'message_thread_id'),
    })
    .strict(),
  discord_configs: z
    .object({
      webhook_url: z.string().min(1).optional(),
      webhook_url_file: z.string().min(1).optional(),
      send_resolved: z.boolean().default(true),
      http_config: httpConfig.optional(),
      ...templated('title', 'message'),
    })
    .strict(),
};

export type IntegrationKind = keyof typeof integrationSchemas;
export const INTEGRATION_KINDS = Object.keys(integrationSchemas) as IntegrationKind[];

/** Alertmanager's integrations that avaxmon does not send itself: named as such, not as unknown keys. */
const FOREIGN_INTEGRATIONS = [
  'victorops_configs',
  'pushover_configs',
  'sns_configs',
  'webex_configs',
  'wechat_configs',
  'msteams_configs',
] as const;

/** An Alertmanager receiver: a name and its integrations, each one notification per group. */
export const alertmanagerReceiverSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/, 'must be 1-63 characters of letters, digits, _ . : -'),
    webhook_configs: z.array(integrationSchemas.webhook_configs).optional(),
    slack_configs: z.array(integrationSchemas.slack_configs).optional(),
    pagerduty_configs: z.array(integrationSchemas.pagerduty_configs).optional(),
    opsgenie_configs: z.array(integrationSchemas.opsgenie_configs).optional(),
    email_configs: z.array(integrationSchemas.email_configs).optional(),
    telegram_configs: z.array(integrationSchemas.telegram_configs).optional(),
    discord_configs: z.array(integrationSchemas.discord_configs).optional(),
    ...Object.fromEntries(FOREIGN_INTEGRATIONS.map((key) => [key, z.unknown().optional()])),
  })
  .strict()
  .superRefine((receiver, ctx) => {
    for (const key of FOREIGN_INTEGRATIONS)
      if ((receiver as Record<string, unknown>)[key] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `avaxmon does not send ${key.replace('_configs', '')} itself: send these alerts through an Alertmanager (a receiver with type: alertmanager), or use ${INTEGRATION_KINDS.join(', ')}`,
        });
  });

export type AlertmanagerReceiverInput = z.infer<typeof alertmanagerReceiverSchema>;

/** An integration in avaxmon's receiver vocabulary (see alerts-schema.ts). */
export interface IntegrationInput extends HttpAuthInput {
  readonly type: 'webhook' | 'slack' | 'pagerduty' | 'opsgenie' | 'email' | 'telegram' | 'discord';
  readonly url?: string;
  readonly url_file?: string;
  readonly routing_key?: string;
  readonly routing_key_file?: string;
  readonly bot_token?: string;
  readonly bot_token_file?: string;
  readonly chat_id?: string | number;
  readonly api_url?: string;
  readonly api_key?: string;
  readonly api_key_file?: string;
  readonly opsgenie?: OpsgenieFields;
  readonly email?: EmailFields;
  readonly auth_password?: string;
  readonly auth_password_file?: string;
  readonly auth_secret?: string;
  readonly send_resolved: boolean;
  readonly timeout?: number;
  readonly max_alerts: number;
  readonly tls_config?: z.infer<typeof httpConfig>['tls_config'];
  readonly proxy_url?: string;
}

type Configs = { [K in IntegrationKind]: z.infer<(typeof integrationSchemas)[K]> };

/** Each integration kind in avaxmon's receiver vocabulary. */
const asInput: { [K in IntegrationKind]: (c: Configs[K]) => IntegrationInput } = {
  webhook_configs: (c) => ({
    type: 'webhook',
    url: c.url,
    url_file: c.url_file,
    send_resolved: c.send_resolved,
    max_alerts: c.max_alerts,
    timeout: c.timeout,
    ...c.http_config,
  }),
  slack_configs: (c) => ({
    type: 'slack',
    url: c.api_url,
    url_file: c.api_url_file,
    send_resolved: c.send_resolved,
    max_alerts: 0,
    ...c.http_config,
  }),
  pagerduty_configs: (c) => ({
    type: 'pagerduty',
    url: c.url,
    routing_key: c.routing_key,
    routing_key_file: c.routing_key_file,
    send_resolved: c.send_resolved,
    max_alerts: 0,
    ...c.http_config,
  }),
  opsgenie_configs: (c) => ({
    type: 'opsgenie',
    api_key: c.api_key,
    api_key_file: c.api_key_file,
    api_url: c.api_url,
    send_resolved: c.send_resolved,
    max_alerts: 0,
    opsgenie: opsgenieFields(c),
    ...c.http_config,
  }),
  email_configs: (c) => ({
    type: 'email',
    send_resolved: c.send_resolved,
    max_alerts: 0,
    email: emailFields(c),
    auth_password: c.auth_password,
    auth_password_file: c.auth_password_file,
    auth_secret: c.auth_secret,
    tls_config: c.tls_config,
  }),
  telegram_configs: (c) => ({
    type: 'telegram',
    bot_token: c.bot_token,
    bot_token_file: c.bot_token_file,
    chat_id: c.chat_id,
    api_url: c.api_url,
    send_resolved: c.send_resolved,
    max_alerts: 0,
    ...c.http_config,
  }),
  discord_configs: (c) => ({
    type: 'discord',
    url: c.webhook_url,
    url_file: c.webhook_url_file,
    send_resolved: c.send_resolved,
    max_alerts: 0,
    ...c.http_config,
  }),
};

/** The integrations of an Alertmanager receiver, each with its path in the config. */
export function integrationsOf(receiver: AlertmanagerReceiverInput, at: string): Array<{ at: string; input: IntegrationInput }> {
  return INTEGRATION_KINDS.flatMap((kind) =>
    ((receiver[kind] ?? []) as Array<Configs[typeof kind]>).map((config, index) => ({
      at: `${at}.${kind}[${index}]`,
      input: (asInput[kind] as (c: Configs[typeof kind]) => IntegrationInput)(config),
    })),
  );
}

/** Alertmanager's defaults for what the root route leaves unset. */
export const ROOT_ROUTE_DEFAULTS = { groupWaitMs: 30_000, groupIntervalMs: 300_000, repeatIntervalMs: 4 * 3_600_000 };

/** Builds the routing tree, checking what Alertmanager checks when it loads one. */
export function buildRoute(
  input: RouteInput,
  receiverNames: ReadonlySet<string>,
  timeIntervalNames: ReadonlySet<string>,
  issues: ConfigIssue[],
): Route {
  if (input.receiver === undefined) issues.push({ path: 'route.receiver', message: 'the root route needs a receiver' });
  if (input.matchers?.length || input.match || input.match_re)
    issues.push({ path: 'route', message: 'the root route must not have matchers: it takes every alert' });
  if (input.mute_time_intervals?.length || input.active_time_intervals?.length)
    issues.push({ path: 'route', message: 'the root route must not have mute_time_intervals or active_time_intervals' });
  const defaults: RouteOptions = {
    receiver: '',
    groupBy: [],
    groupWaitMs: ROOT_ROUTE_DEFAULTS.groupWaitMs,
    groupIntervalMs: ROOT_ROUTE_DEFAULTS.groupIntervalMs,
    repeatIntervalMs: ROOT_ROUTE_DEFAULTS.repeatIntervalMs,
    muteTimeIntervals: [],
    activeTimeIntervals: [],
  };
  return node(input, defaults, undefined, 'route', { receiverNames, timeIntervalNames, issues });
}

interface Checks {
  readonly receiverNames: ReadonlySet<string>;
  readonly timeIntervalNames: ReadonlySet<string>;
  readonly issues: ConfigIssue[];
}

function node(input: RouteInput, inherited: RouteOptions, parent: Route | undefined, at: string, checks: Checks): Route {
  const options: RouteOptions = {
    receiver: input.receiver ?? inherited.receiver,
    groupBy: input.group_by ?? inherited.groupBy,
    groupWaitMs: input.group_wait ?? inherited.groupWaitMs,
    groupIntervalMs: input.group_interval ?? inherited.groupIntervalMs,
    repeatIntervalMs: input.repeat_interval ?? inherited.repeatIntervalMs,
    muteTimeIntervals: input.mute_time_intervals ?? [],
    activeTimeIntervals: input.active_time_intervals ?? [],
  };
  if (input.receiver !== undefined && !checks.receiverNames.has(input.receiver))
    checks.issues.push({ path: `${at}.receiver`, message: `no receiver named "${input.receiver}" in alerts.receivers` });
  if (options.groupBy.includes('...') && options.groupBy.length > 1)
    checks.issues.push({ path: `${at}.group_by`, message: '"..." groups by every label: it cannot be listed with other labels' });
  if (options.groupIntervalMs <= 0) checks.issues.push({ path: `${at}.group_interval`, message: 'must be more than 0s' });
  if (options.repeatIntervalMs <= 0) checks.issues.push({ path: `${at}.repeat_interval`, message: 'must be more than 0s' });
  for (const key of ['mute_time_intervals', 'active_time_intervals'] as const)
    for (const name of input[key] ?? [])
      if (!checks.timeIntervalNames.has(name))
        checks.issues.push({ path: `${at}.${key}`, message: `no time interval named "${name}" in alerts.time_intervals` });
  const matchers: Matcher[] = [
    ...Object.entries(input.match ?? {}).map(([name, value]): Matcher => ({ name, op: '=', value })),
    ...Object.entries(input.match_re ?? {}).map(([name, value]) => regexMatcher(name, value, `${at}.match_re.${name}`, checks.issues)),
    ...(input.matchers ?? []),
  ].sort(compareMatchers);
  const route = new Route(options, matchers, input.continue ?? false, parent);
  for (const [index, child] of (input.routes ?? []).entries())
    route.routes.push(node(child, options, route, `${at}.routes[${index}]`, checks));
  return route;
}

/** A legacy match_re: Alertmanager 0.25 anchors it, and the anchored text is what its route key shows. */
function regexMatcher(name: string, value: string, path: string, issues: ConfigIssue[]): Matcher {
  try {
    return parseMatcher(`${name}=~${JSON.stringify(`^(?:${value})$`)}`);
  } catch (error) {
    issues.push({ path, message: (error as Error).message });
    return buildMatcher(name, '=~', '');
  }
}
