import { z } from 'zod';
import { httpConfigFields, transportOf, type HttpTransport } from './http-config-schema.js';
import { parseDuration } from './duration.js';
import type { ConfigIssue } from '../errors.js';
import type { InhibitRule } from '../alerts/dispatch/inhibit/inhibition.js';
import { parseMatcher, type Matcher } from '../alerts/matchers/matchers.js';
import { SEVERITIES, type RuleSettings, type Severity } from '../alerts/evaluation/rule.js';
import { ruleNames, ruleRegistry } from '../alerts/evaluation/rules/index.js';
import { DEFAULT_LOCK_HEARTBEAT_MS } from '../alerts/state/state-dir-lock.js';
import { registerHeaderSecret, registerSecret, registerSecretUrl } from './redact.js';
import { basicCredentials, type OAuth2Settings } from '../alerts/dispatch/notify/receivers/oauth2-token.js';
import { durationMs, httpUrl, labelName } from './fields.js';
import { readSecretFile } from './secret-files.js';
import { closest } from './did-you-mean.js';
import { keysAt } from './schema-keys.js';
import type { Route } from '../alerts/dispatch/route/route.js';
import type { TimeInterval } from '../alerts/dispatch/time-mute/time-interval.js';
import {
  alertmanagerReceiverSchema,
  buildRoute,
  integrationsOf,
  matcherList,
  routeSchema,
  timeIntervalsSchema,
  type HttpAuthInput,
  type IntegrationInput,
} from './routing-schema.js';
import { OPSGENIE_API_URL, type OpsgenieFields } from './opsgenie-schema.js';
import type { EmailFields } from './email-schema.js';

export const RECEIVER_TYPES = ['webhook', 'slack', 'discord', 'pagerduty', 'telegram', 'alertmanager'] as const;
/** avaxmon's `type:` vocabulary, and the integrations only Alertmanager's shape names (opsgenie_configs, email_configs). */
export type ReceiverType = (typeof RECEIVER_TYPES)[number] | 'opsgenie' | 'email';

const severity = z.enum(SEVERITIES);

/** A shorter heartbeat would only rewrite the lock's mtime more often than anything can act on it. */
const MIN_LOCK_HEARTBEAT_MS = 100;

const ruleOverride = z
  .object({ enabled: z.boolean().optional(), for: durationMs.optional(), severity: severity.optional() })
  .catchall(z.union([z.number(), z.string()]));

/** A label name, or "..." for every label (one group per alert), as in Alertmanager. */
const groupLabel = z.string().regex(/^([A-Za-z_][A-Za-z0-9_]*|\.\.\.)$/, 'must be a label name or "..."');

const receiverSchema = z
  .object({
    name: labelName,
    type: z.enum(RECEIVER_TYPES),
    url: httpUrl.optional(),
    url_file: z.string().min(1).optional(),
    /** alertmanager only: several Alertmanagers of one HA cluster. */
    urls: z.array(httpUrl).optional(),
    hmac_secret: z.string().min(1).optional(),
    hmac_secret_file: z.string().min(1).optional(),
    routing_key: z.string().min(1).optional(),
    routing_key_file: z.string().min(1).optional(),
    bot_token: z.string().min(1).optional(),
    bot_token_file: z.string().min(1).optional(),
    chat_id: z.union([z.string().min(1), z.number()]).optional(),
    /** telegram and pagerduty: the API base, for a proxy or a test server. */
    api_url: httpUrl.optional(),
    severity: z
      .array(severity)
      .min(1)
      .default([...SEVERITIES]),
    match: z.record(z.string(), z.string()).default({}),
    send_resolved: z.boolean().default(true),
    timeout: durationMs.default(10_000),
    /** Reminder interval for this receiver; alertmanager defaults to 1m so its alerts never expire. */
    repeat_interval: durationMs.optional(),
    ...httpConfigFields,
    /** Grouping for this receiver; the alerts-level settings by default. */
    group_by: z.array(groupLabel).optional(),
    group_wait: durationMs.optional(),
    group_interval: durationMs.optional(),
  })
  .strict();

const labelEquals = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a label name'), z.string());

/** Alertmanager's inhibit rule, with its deprecated source_match(_re) / target_match(_re) too. */
const inhibitRuleSchema = z
  .object({
    source_matchers: matcherList.default([]),
    target_matchers: matcherList.default([]),
    source_match: labelEquals.optional(),
    source_match_re: labelEquals.optional(),
    target_match: labelEquals.optional(),
    target_match_re: labelEquals.optional(),
    equal: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a label name')).default([]),
  })
  .strict()
  .transform((rule, ctx): InhibitRule => {
    const legacy = (equal: Record<string, string> | undefined, regex: Record<string, string> | undefined, side: string) => [
      ...Object.entries(equal ?? {}).map(([name, value]): Matcher => ({ name, op: '=', value })),
      ...Object.entries(regex ?? {}).flatMap(([name, value]) => {
        try {
          return [parseMatcher(`${name}=~${JSON.stringify(value)}`)];
        } catch (error) {
          ctx.addIssue({ code: 'custom', path: [`${side}_match_re`, name], message: (error as Error).message });
          return [];
        }
      }),
    ];
    const sourceMatchers = [...rule.source_matchers, ...legacy(rule.source_match, rule.source_match_re, 'source')];
    const targetMatchers = [...rule.target_matchers, ...legacy(rule.target_match, rule.target_match_re, 'target')];
    for (const [side, matchers] of [
      ['source_matchers', sourceMatchers],
      ['target_matchers', targetMatchers],
    ] as const)
      if (matchers.length === 0)
        ctx.addIssue({ code: 'custom', path: [side], message: 'needs at least one matcher (or the legacy *_match / *_match_re)' });
    return { sourceMatchers, targetMatchers, equal: rule.equal };
  });

/** The identity labels of an alert besides its name: "the same alert" in an inhibit rule's equal. */
const SAME_ALERT = ['alertname', 'target', 'subnet', 'chain', 'node_id', 'check', 'collector', 'receiver'];

/**
 * What an operator would write anyway: a target that is down explains all its other alerts; an
 * unhealthy node explains its failing checks and subnets, its readiness and the collectors its
 * unanswering chains fail (a bootstrapping node answers 503), but never the health collector's own
 * failure, which leaves the unhealthy alert itself stale; a critical explains the same alert's warning.
 * The rows of docs/alerting.md's "what pages when" table that these make one page are in
 * test/alerts/situations.ts (partition, unknown upgrade).
 */
const DEFAULT_INHIBIT_RULES = [
  { source_matchers: ['alertname="AvaxmonTargetDown"'], target_matchers: ['alertname!="AvaxmonTargetDown"'], equal: ['target'] },
  {
    source_matchers: ['alertname="AvalancheNodeUnhealthy"'],
    target_matchers: ['alertname=~"AvalancheHealthCheckFailing|AvalancheSubnetUnhealthy|AvalancheNodeNotReady"'],
    equal: ['target'],
  },
  {
    source_matchers: ['alertname="AvalancheNodeUnhealthy"'],
    target_matchers: ['alertname="AvaxmonCollectorFailing"', 'collector!="health"'],
    equal: ['target'],
  },
  // A partition: the node's own health says it lacks stake or peers (network and chain checks), so
  // the stake, peers and chains it cannot reach are that page's symptoms. Only a critical one: a
  // bootstrap inside its grace is a warning and must not hide a page.
  {
    source_matchers: ['alertname="AvalancheNodeUnhealthy"', 'severity="critical"'],
    target_matchers: ['alertname=~"AvalancheStakeConnectedLow|AvalanchePeersLow|AvalancheValidatorDisconnected|AvalancheChainStalled"'],
    equal: ['target'],
  },
  // An upgrade the node does not know is why it runs behind the stake's version.
  {
    source_matchers: ['alertname="AvalancheUpgradeScheduled"', 'severity=~"warning|critical"'],
    target_matchers: ['alertname="AvalancheNodeVersionBehind"'],
    equal: ['target'],
  },
  { source_matchers: ['severity="critical"'], target_matchers: ['severity="warning"'], equal: SAME_ALERT },
];

const retrySchema = z
  .object({
    initial_backoff: durationMs.default(1_000),
    max_backoff: durationMs.default(300_000),
    /** A notification still undelivered after this long is dropped (outcome "expired"). */
    max_age: durationMs.default(86_400_000),
  })
  .strict();

export interface ReceiverConfig {
  readonly name: string;
  readonly type: ReceiverType;
  readonly urls: readonly string[];
  readonly hmacSecret?: string;
  readonly routingKey?: string;
  readonly botToken?: string;
  readonly chatId?: string;
  readonly apiUrl?: string;
  /** opsgenie: the GenieKey (a secret). */
  readonly apiKey?: string;
  /** opsgenie: the fields of its opsgenie_configs entry avaxmon sends. */
  readonly opsgenie?: OpsgenieFields;
  /** email: the SMTP server, addresses and texts, with the login's password and CRAM-MD5 secret (secrets). */
  readonly email?: EmailFields & { readonly password?: string; readonly cramSecret?: string };
  readonly severities: readonly Severity[];
  readonly match: Readonly<Record<string, string>>;
  readonly sendResolved: boolean;
  readonly timeoutMs: number;
  readonly repeatIntervalMs?: number;
  /** tls_config and proxy_url toward this receiver's URLs. */
  readonly transport?: HttpTransport;
  /** The Authorization header of an Alertmanager-shaped integration's http_config (a secret). */
  readonly authorization?: string;
  /** http_config.oauth2: the Authorization header is a token fetched with these. */
  readonly oauth2?: OAuth2Settings;
  readonly grouping: Grouping;
  /** The Alertmanager receiver this integration belongs to (the webhook's `receiver`); `name` otherwise. */
  readonly receiver?: string;
  /** The route that sends here (alerts.route); without one, `severities` and `match` decide. */
  readonly route?: Route;
  /** The route's key, the first half of Alertmanager's groupKey: `{}` without alerts.route. */
  readonly routeKey?: string;
  /** webhook: at most this many alerts per notification (0: all), as Alertmanager's max_alerts. */
  readonly maxAlerts?: number;
  /** The route's mute_time_intervals: no notification while one of these holds. */
  readonly muteTimeIntervals?: readonly TimeInterval[];
  /** The route's active_time_intervals: notifications only while one holds (unset: always). */
  readonly activeTimeIntervals?: readonly TimeInterval[];
}

/** Alertmanager's route grouping: one notification per group of alerts with equal `by` labels. */
export interface Grouping {
  readonly by: readonly string[];
  /** How long a new group waits for more alerts before its first notification. */
  readonly waitMs: number;
  /** How long a group waits after a notification before the next one with its changes. */
  readonly intervalMs: number;
}

export interface AlertsConfig {
  readonly stateDir: string;
  /** How often the state_dir lock's holder refreshes it; a lock silent for three of these is taken over. */
  readonly lockHeartbeatMs: number;
  readonly repeatIntervalMs: number;
  readonly externalUrl?: string;
  readonly flapWindowMs: number;
  readonly flapMaxTransitions: number;
  readonly maxQueuedNotifications: number;
  readonly flapSettleMs: number;
  /** A stale alert (its collector failing) resolves after this long; undefined: it waits for the collector. */
  readonly staleExpiryMs?: number;
  readonly retry: { readonly initialBackoffMs: number; readonly maxBackoffMs: number; readonly maxAgeMs: number };
  readonly rules: Readonly<Record<string, RuleSettings>>;
  readonly receivers: readonly ReceiverConfig[];
  readonly inhibitRules: readonly InhibitRule[];
}

export const alertsSchema = z
  .object({
    state_dir: z.string().min(1).default('./data'),
    /**
     * The state_dir lock's heartbeat; a lock whose heartbeat stops for three of them is taken over.
     * Shorter hands over faster after a crash on another host; under 1s, a daemon stalled that long is taken for gone.
     */
    lock_heartbeat: durationMs
      .refine((ms) => ms >= MIN_LOCK_HEARTBEAT_MS, `must be at least ${MIN_LOCK_HEARTBEAT_MS}ms`)
      .default(DEFAULT_LOCK_HEARTBEAT_MS),
    repeat_interval: durationMs.default(4 * 3_600_000),
    /** This avaxmon's public URL, sent as the alerts' generatorURL. */
    external_url: httpUrl.optional(),
    flap_window: durationMs.default(3_600_000),
    /** Notifications (firing or resolved) one alert may cause within flap_window; the next is the "flapping" notice. */
    flap_max_transitions: z.number().int().min(2).default(6),
    /** Past this many queued notifications the oldest are dropped (counted in avaxmon_notifications_dropped_total). */
    max_queued_notifications: z.number().int().min(1).default(10_000),
    /** A flapping alert's current state is sent once it has not changed for this long. */
    flap_settle: durationMs.default(30_000),
    /** Resolve alerts that stayed stale this long (their collector failing); by default they wait for it. */
    stale_expiry: durationMs.optional(),
    retry: retrySchema.default({ initial_backoff: 1_000, max_backoff: 300_000, max_age: 86_400_000 }),
    rules: z.record(z.string(), ruleOverride).default({}),
    /** avaxmon's receivers (`type: ...`) and Alertmanager's (`webhook_configs: ...`), told apart by `type`. */
    receivers: z.array(z.looseObject({})).default([]),
    /** Alertmanager's routing tree; without it each receiver takes what its severity and match select. */
    route: routeSchema.optional(),
    time_intervals: timeIntervalsSchema.optional(),
    /** Alertmanager's older name for time_intervals. */
    mute_time_intervals: timeIntervalsSchema.optional(),
    /** Defaults for every receiver: fast enough for the latency promise; Alertmanager's are 30s and 5m. */
    group_by: z.array(groupLabel).default(['alertname']),
    group_wait: durationMs.default(1_000),
    group_interval: durationMs.default(10_000),
    /** Alertmanager's inhibit_rules; setting them replaces the defaults. */
    inhibit_rules: z.array(inhibitRuleSchema).prefault(DEFAULT_INHIBIT_RULES),
  })
  .strict()
  .transform((alerts, ctx): AlertsConfig => {
    const issues: ConfigIssue[] = [];
    const rules = resolveRules(alerts.rules, issues);
    const grouping: Grouping = { by: alerts.group_by, waitMs: alerts.group_wait, intervalMs: alerts.group_interval };
    const receivers = resolveReceivers(alerts, issues, grouping);
    for (const issue of uniqueIssues(issues))
      ctx.addIssue({
        code: 'custom',
        path: issue.path
          .split(/[.[\]]+/)
          .filter(Boolean)
          .map(pathKey),
        message: issue.message,
      });
    return {
      stateDir: alerts.state_dir,
      lockHeartbeatMs: alerts.lock_heartbeat,
      repeatIntervalMs: alerts.repeat_interval,
      externalUrl: alerts.external_url,
      flapWindowMs: alerts.flap_window,
      flapMaxTransitions: alerts.flap_max_transitions,
      maxQueuedNotifications: alerts.max_queued_notifications,
      flapSettleMs: alerts.flap_settle,
      staleExpiryMs: alerts.stale_expiry,
      retry: { initialBackoffMs: alerts.retry.initial_backoff, maxBackoffMs: alerts.retry.max_backoff, maxAgeMs: alerts.retry.max_age },
      rules,
      receivers,
      inhibitRules: alerts.inhibit_rules,
    };
  })
  .optional();

const pathKey = (key: string) => (/^\d+$/.test(key) ? Number(key) : key);

type RuleOverride = z.infer<typeof ruleOverride>;

function resolveRules(overrides: Record<string, RuleOverride>, issues: ConfigIssue[]): Record<string, RuleSettings> {
  for (const name of Object.keys(overrides)) {
    if (!ruleRegistry.has(name)) issues.push({ path: `rules.${name}`, message: `unknown rule (known: ${ruleNames.join(', ')})` });
  }
  const settings: Record<string, RuleSettings> = {};
  for (const [name, rule] of ruleRegistry) {
    const { enabled, for: forMs, severity: severityOverride, ...given } = overrides[name] ?? {};
    const params: Record<string, number> = {};
    for (const [key, spec] of Object.entries(rule.params)) params[key] = spec.default;
    for (const [key, value] of Object.entries(given)) {
      const spec = rule.params[key];
      const path = `rules.${name}.${key}`;
      if (!spec) {
        const accepted = ['enabled', 'for', 'severity', ...Object.keys(rule.params)].join(', ');
        issues.push({ path, message: `unknown setting (${name} accepts: ${accepted})` });
      } else if (spec.kind === 'number') {
        if (typeof value === 'number') params[key] = value;
        else issues.push({ path, message: `must be a number (${spec.help})` });
      } else {
        const ms = typeof value === 'string' ? parseDuration(value) : undefined;
        if (ms === undefined) issues.push({ path, message: `must be a duration like 30m, 24h or 7d (${spec.help})` });
        else params[key] = ms / 1000;
      }
    }
    settings[name] = { enabled: enabled ?? true, forMs: forMs ?? parseDuration(rule.defaultFor)!, severity: severityOverride, params };
  }
  return settings;
}

type ReceiverInput = z.infer<typeof receiverSchema>;

/** An avaxmon receiver, or an Alertmanager integration in its vocabulary (asReceiverInput). */
type ResolvableInput = Omit<ReceiverInput, 'type'> & { readonly type: ReceiverType } & HttpAuthInput &
  Partial<
    Pick<
      IntegrationInput,
      'max_alerts' | 'api_key' | 'api_key_file' | 'opsgenie' | 'email' | 'auth_password' | 'auth_password_file' | 'auth_secret'
    >
  >;

/** What a route gives the receivers it sends to; without alerts.route, the alerts-level grouping. */
interface RouteSettings {
  readonly grouping: Grouping;
  readonly route?: Route;
  readonly repeatIntervalMs?: number;
  readonly receiver?: string;
  readonly muteTimeIntervals?: readonly TimeInterval[];
  readonly activeTimeIntervals?: readonly TimeInterval[];
}

type AlertsInput = {
  receivers: Array<Record<string, unknown>>;
  route?: z.infer<typeof routeSchema>;
  time_intervals?: z.infer<typeof timeIntervalsSchema>;
  mute_time_intervals?: z.infer<typeof timeIntervalsSchema>;
};

/** Keys an avaxmon receiver may not set under alerts.route: the route decides them. */
const ROUTE_DECIDES = ['severity', 'match', 'group_by', 'group_wait', 'group_interval', 'repeat_interval'];

/**
 * The receivers as delivery sees them, one per integration: without alerts.route, each avaxmon
 * receiver and each integration of an Alertmanager receiver; with it, one per route and integration
 * of the receiver the route names, as Alertmanager keeps an aggregation group per route.
 */
function resolveReceivers(alerts: AlertsInput, issues: ConfigIssue[], grouping: Grouping): ReceiverConfig[] {
  const parsed = alerts.receivers.map((raw, index) => parseReceiver(raw, `receivers[${index}]`, issues));
  const names = new Set<string>();
  parsed.forEach((receiver, index) => {
    if (receiver === undefined) return;
    if (names.has(receiver.name)) issues.push({ path: `receivers[${index}].name`, message: `duplicate receiver name "${receiver.name}"` });
    names.add(receiver.name);
  });
  if (!alerts.route) {
    return parsed.flatMap((receiver) =>
      receiver === undefined
        ? []
        : receiver.integrations.map(({ at, input, name }) => resolveReceiver(input, at, issues, { grouping }, name)),
    );
  }
  for (const receiver of parsed)
    for (const { at, raw } of receiver?.integrations ?? [])
      for (const key of ROUTE_DECIDES)
        if (raw && key in raw)
          issues.push({ path: `${at}.${key}`, message: 'with alerts.route, the route decides this: set it on the route' });
  const intervals = new Map<string, TimeInterval[]>();
  for (const { name, time_intervals } of [...(alerts.mute_time_intervals ?? []), ...(alerts.time_intervals ?? [])]) {
    if (intervals.has(name)) issues.push({ path: 'time_intervals', message: `duplicate time interval name "${name}"` });
    intervals.set(name, time_intervals);
  }
  // A receiver with a problem of its own still has its name: routes naming it get no second issue.
  const named = new Set([...names, ...alerts.receivers.flatMap((raw) => (typeof raw.name === 'string' ? [raw.name] : []))]);
  const root = buildRoute(alerts.route, named, new Set(intervals.keys()), issues);
  const byName = new Map(parsed.flatMap((receiver) => (receiver ? [[receiver.name, receiver] as const] : [])));
  const nodes = [...root.walk()];
  const uses = new Map<string, number>();
  for (const node of nodes) uses.set(node.options.receiver, (uses.get(node.options.receiver) ?? 0) + 1);
  return nodes.flatMap((node, index) => {
    const receiver = byName.get(node.options.receiver);
    if (!receiver) return [];
    const shared = (uses.get(receiver.name) ?? 0) > 1;
    const settings: RouteSettings = {
      grouping: { by: node.options.groupBy, waitMs: node.options.groupWaitMs, intervalMs: node.options.groupIntervalMs },
      route: node,
      repeatIntervalMs: node.options.repeatIntervalMs,
      receiver: receiver.name,
      muteTimeIntervals: node.options.muteTimeIntervals.flatMap((name) => intervals.get(name) ?? []),
      activeTimeIntervals:
        node.options.activeTimeIntervals.length > 0
          ? node.options.activeTimeIntervals.flatMap((name) => intervals.get(name) ?? [])
          : undefined,
    };
    return receiver.integrations.map(({ at, input, name }) =>
      resolveReceiver(input, at, issues, settings, shared ? `${name}@${index}` : name),
    );
  });
}

interface ParsedReceiver {
  readonly name: string;
  readonly integrations: ReadonlyArray<{ at: string; input: ResolvableInput; name: string; raw?: Record<string, unknown> }>;
}

/** An avaxmon receiver has a `type`; anything else is read as Alertmanager's. */
function parseReceiver(raw: Record<string, unknown>, at: string, issues: ConfigIssue[]): ParsedReceiver | undefined {
  const report = (error: z.ZodError, schema: z.ZodType) => {
    const pathOf = (keys: readonly PropertyKey[]) =>
      [at, ...keys.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))].join('');
    for (const issue of error.issues) {
      // One line per unknown key, naming the key it probably meant, as for the rest of the config.
      if (issue.code === 'unrecognized_keys') {
        const known = keysAt(schema, issue.path);
        for (const key of issue.keys) {
          const meant = closest(key, known);
          issues.push({ path: pathOf([...issue.path, key]), message: meant ? `unknown key; did you mean ${meant}?` : 'unknown key' });
        }
      } else issues.push({ path: pathOf(issue.path), message: issue.message });
    }
  };
  if ('type' in raw) {
    const result = receiverSchema.safeParse(raw);
    if (!result.success) return void report(result.error, receiverSchema);
    return { name: result.data.name, integrations: [{ at, input: result.data, name: result.data.name, raw }] };
  }
  const result = alertmanagerReceiverSchema.safeParse(raw);
  if (!result.success) return void report(result.error, alertmanagerReceiverSchema);
  const integrations = integrationsOf(result.data, at);
  const name = result.data.name;
  return {
    name,
    integrations: integrations.map(({ at: path, input }, index) => ({
      at: path,
      input: asReceiverInput(name, input),
      name: integrations.length > 1 ? `${name}/${index}` : name,
    })),
  };
}

/** An Alertmanager integration in avaxmon's receiver vocabulary. */
function asReceiverInput(name: string, input: IntegrationInput): ResolvableInput {
  return {
    ...input,
    name,
    urls: undefined,
    severity: [...SEVERITIES],
    match: {},
    timeout: input.timeout ?? 10_000,
    chat_id: input.chat_id,
  } as ResolvableInput;
}

/** A receiver used by several routes reports its problems once. */
function uniqueIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Reads the receiver's `*_file` secrets, checks what its type needs, and registers every secret. */
function resolveReceiver(
  receiver: ResolvableInput,
  at: string,
  issues: ConfigIssue[],
  settings: RouteSettings,
  name = receiver.name,
): ReceiverConfig {
  const secret = (value: string | undefined, file: string | undefined, key: string) => {
    if (value !== undefined && file !== undefined)
      issues.push({ path: `${at}.${key}_file`, message: `set either ${key} or ${key}_file, not both` });
    const resolved = file !== undefined ? readSecretFile(file, `${at}.${key}_file`, issues) : value;
    registerSecret(resolved);
    return resolved;
  };
  if (receiver.url !== undefined && !httpUrl.safeParse(receiver.url).success)
    issues.push({ path: `${at}.url`, message: 'must be an http(s) URL' });
  const url = secret(receiver.url, receiver.url_file, 'url');
  if (url !== undefined && receiver.url_file !== undefined && !httpUrl.safeParse(url).success)
    issues.push({ path: `${at}.url_file`, message: 'the file must hold an http(s) URL' });
  const urls = [...(url === undefined ? [] : [url]), ...(receiver.urls ?? [])];
  // A webhook, Slack or Discord URL is the credential, its token in the path; a receiver may echo any part of it.
  // Opsgenie's API URL is a public address: its key travels in a header.
  const apiUrlSecret = receiver.type === 'opsgenie' ? undefined : receiver.api_url;
  for (const each of [...urls, apiUrlSecret]) if (each !== undefined) registerSecretUrl(each);
  const { grouping } = settings;
  const resolved: ReceiverConfig = {
    name,
    type: receiver.type,
    urls,
    hmacSecret: secret(receiver.hmac_secret, receiver.hmac_secret_file, 'hmac_secret'),
    routingKey: secret(receiver.routing_key, receiver.routing_key_file, 'routing_key'),
    botToken: secret(receiver.bot_token, receiver.bot_token_file, 'bot_token'),
    chatId: receiver.chat_id === undefined ? undefined : String(receiver.chat_id),
    apiUrl: receiver.type === 'opsgenie' ? opsgenieApiUrl(receiver.api_url) : receiver.api_url,
    apiKey: secret(receiver.api_key, receiver.api_key_file, 'api_key'),
    opsgenie: receiver.opsgenie,
    email: receiver.email && {
      ...receiver.email,
      password: secret(receiver.auth_password, receiver.auth_password_file, 'auth_password'),
      cramSecret: secret(receiver.auth_secret, undefined, 'auth_secret'),
    },
    severities: receiver.severity,
    match: receiver.match,
    sendResolved: receiver.send_resolved,
    timeoutMs: receiver.timeout,
    repeatIntervalMs: settings.repeatIntervalMs ?? receiver.repeat_interval,
    transport: transportOf(receiver),
    authorization: authorizationOf(receiver, at, issues, secret),
    oauth2: oauth2Of(receiver, at, issues, secret),
    grouping: settings.route
      ? grouping
      : {
          by: receiver.group_by ?? grouping.by,
          waitMs: receiver.group_wait ?? grouping.waitMs,
          intervalMs: receiver.group_interval ?? grouping.intervalMs,
        },
    receiver: settings.receiver ?? receiver.name,
    route: settings.route,
    routeKey: settings.route?.key() ?? '{}',
    maxAlerts: receiver.max_alerts ?? 0,
    muteTimeIntervals: settings.muteTimeIntervals,
    activeTimeIntervals: settings.activeTimeIntervals,
  };
  issues.push(...missingFields(resolved, receiver, at));
  return resolved;
}

/** As Alertmanager: Opsgenie's API unless set, and a base that ends in "/", so v2/alerts follows it. */
function opsgenieApiUrl(apiUrl: string | undefined): string | undefined {
  if (apiUrl === undefined) return OPSGENIE_API_URL;
  if (!URL.canParse(apiUrl)) return undefined;
  const url = new URL(apiUrl);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.toString();
}

/** The Authorization header of http_config's credentials, read as Prometheus reads them: one kind at most. */
function authorizationOf(
  auth: HttpAuthInput,
  at: string,
  issues: ConfigIssue[],
  secret: (value: string | undefined, file: string | undefined, key: string) => string | undefined,
): string | undefined {
  const kinds = (['authorization', 'basic_auth', 'oauth2', 'bearer_token', 'bearer_token_file'] as const).filter(
    (key) => auth[key] !== undefined,
  );
  if (kinds.length > 1 && !(kinds.length === 2 && kinds.includes('bearer_token') && kinds.includes('bearer_token_file')))
    issues.push({
      path: `${at}.http_config`,
      message: `set at most one of authorization, basic_auth, oauth2 and bearer_token, not ${kinds.join(' and ')}`,
    });
  const header = (() => {
    if (auth.authorization) {
      const credentials = secret(
        auth.authorization.credentials,
        auth.authorization.credentials_file,
        'http_config.authorization.credentials',
      );
      if (auth.authorization.type.toLowerCase() === 'basic')
        issues.push({ path: `${at}.http_config.authorization.type`, message: 'use basic_auth for Basic credentials, as Prometheus asks' });
      return credentials === undefined ? undefined : `${auth.authorization.type} ${credentials}`;
    }
    if (auth.basic_auth) {
      const password = secret(auth.basic_auth.password, auth.basic_auth.password_file, 'http_config.basic_auth.password') ?? '';
      return `Basic ${Buffer.from(`${auth.basic_auth.username}:${password}`).toString('base64')}`;
    }
    const token = secret(auth.bearer_token, auth.bearer_token_file, 'http_config.bearer_token');
    return token === undefined ? undefined : `Bearer ${token}`;
  })();
  registerSecret(header);
  return header;
}

/** http_config.oauth2, checked as Prometheus checks it; its client secret and Basic credentials registered. */
function oauth2Of(
  auth: HttpAuthInput,
  at: string,
  issues: ConfigIssue[],
  secret: (value: string | undefined, file: string | undefined, key: string) => string | undefined,
): OAuth2Settings | undefined {
  const { oauth2 } = auth;
  if (!oauth2) return undefined;
  if (oauth2.client_secret === undefined && oauth2.client_secret_file === undefined)
    issues.push({ path: `${at}.http_config.oauth2.client_secret`, message: 'set client_secret or client_secret_file' });
  // Go's clientcredentials refuses to let endpoint_params overwrite the scopes.
  if (oauth2.endpoint_params?.scope !== undefined && oauth2.scopes?.length)
    issues.push({ path: `${at}.http_config.oauth2.endpoint_params.scope`, message: 'must not set scope: use scopes' });
  const clientSecret = secret(oauth2.client_secret, oauth2.client_secret_file, 'http_config.oauth2.client_secret') ?? '';
  registerHeaderSecret(basicCredentials(oauth2.client_id, clientSecret));
  return {
    tokenUrl: oauth2.token_url,
    clientId: oauth2.client_id,
    clientSecret,
    scopes: oauth2.scopes ?? [],
    endpointParams: oauth2.endpoint_params ?? {},
    transport: transportOf(oauth2),
  };
}

function missingFields(resolved: ReceiverConfig, input: ResolvableInput, at: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const need = (ok: boolean, key: string, message: string) => {
    if (!ok) issues.push({ path: `${at}.${key}`, message });
  };
  switch (resolved.type) {
    case 'webhook':
    case 'slack':
    case 'discord':
      // An unreadable url_file is its own issue: no second one saying the URL is missing.
      need(
        resolved.urls.length === 1 || input.url_file !== undefined,
        'url',
        `a ${resolved.type} receiver needs exactly one url or url_file`,
      );
      break;
    case 'alertmanager':
      need(
        resolved.urls.length > 0 || input.url_file !== undefined,
        'url',
        'an alertmanager receiver needs url, url_file or urls (the Alertmanager base URLs)',
      );
      break;
    case 'pagerduty':
      need(
        resolved.routingKey !== undefined || input.routing_key_file !== undefined,
        'routing_key',
        'a pagerduty receiver needs routing_key or routing_key_file',
      );
      need(resolved.urls.length <= 1, 'urls', 'a pagerduty receiver takes at most one url (the Events API v2 endpoint)');
      break;
    case 'opsgenie':
      need(resolved.apiUrl !== undefined && httpUrl.safeParse(resolved.apiUrl).success, 'api_url', 'must be an http(s) URL');
      break;
    case 'telegram':
      need(
        resolved.botToken !== undefined || input.bot_token_file !== undefined,
        'bot_token',
        'a telegram receiver needs bot_token or bot_token_file',
      );
      need(resolved.chatId !== undefined, 'chat_id', 'a telegram receiver needs chat_id');
      break;
  }
  if (resolved.hmacSecret !== undefined && resolved.type !== 'webhook') {
    issues.push({ path: `${at}.hmac_secret`, message: 'only webhook receivers sign their requests' });
  }
  return issues;
}
