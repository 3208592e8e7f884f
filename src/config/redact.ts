/**
 * Every secret the config holds (header values, API keys, webhook URLs, tokens). Logs and the status
 * page scrub these strings wherever they appear, so a secret leaks through neither a field we forgot
 * to redact nor an upstream error message that echoes it.
 */
const secrets = new Set<string>();
/** Longest first, so a URL is scrubbed whole before a token inside it is. */
let scrubOrder: string[] = [];
const MIN_SECRET_LENGTH = 4;
export const REDACTED = '<redacted>';

export function registerSecret(value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  secrets.add(value);
  scrubOrder = [...secrets].sort((a, b) => b.length - a.length);
}

/** A credential that was replaced (a renewed OAuth2 token) and is sent nowhere any more. */
export function forgetSecret(value: string): void {
  if (!secrets.delete(value)) return;
  scrubOrder = [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * Registers a URL that is itself a credential (a webhook, Slack or Discord URL): the whole URL, and
 * every part a receiver may echo on its own in an error (`/hook/<token>`, `?token=`, basic auth).
 */
export function registerSecretUrl(url: string): void {
  registerSecret(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  registerUrlCredentials(parsed);
  registerSecretPath(parsed.pathname);
}

/**
 * Route words of the receivers we build (Slack `/services/`, Discord `/api/webhooks/`, Telegram
 * `/bot<token>/sendMessage`, PagerDuty `/v2/enqueue`, Alertmanager `/api/v2/alerts`), of generic
 * webhook paths, and common words of operators' own paths. They are structure, not secrets, and
 * scrubbing them would mangle every log line that mentions them.
 */
const ROUTE_WORDS = new Set([
  ...['hook', 'hooks', 'webhook', 'webhooks', 'services', 'api', 'v1', 'v2', 'v3', 'enqueue', 'alert', 'alerts', 'sendmessage'],
  // Words operators put in their own receivers' paths; scrubbed, they would blank every log line that
  // says them ("<redacted> listening", "data/<redacted>.lock"). A token is not one of these words.
  ...['avaxmon', 'avalanche', 'prometheus', 'alertmanager', 'grafana', 'notify', 'notification', 'notifications', 'receiver', 'receivers'],
  ...[
    'incoming',
    'inbound',
    'events',
    'event',
    'integrations',
    'integration',
    'slack',
    'discord',
    'telegram',
    'pagerduty',
    'opsgenie',
    'teams',
  ],
  ...['monitoring', 'monitor', 'ops', 'oncall', 'pager', 'prod', 'production', 'staging', 'dev', 'test', 'default', 'public', 'internal'],
]);

/**
 * The path of a credential URL. A receiver may echo the path (`POST /hook/<token>`) or quote only
 * the token (`invalid token <token>`), and a token need not look like one: `mysecrettoken` or
 * `ab12cd` is as much a credential as a 40-character hash. So a segment counts as secret whatever
 * its shape, unless it is a route word, or it is the leading segment while a later one can hold the
 * secret (`/hook/`, `/prod/`: the prefix a webhook path starts with) and it does not look like a token.
 * Each secret segment is registered bare (at 4 characters or more, the floor of `registerSecret`)
 * and with the rest of the path it starts (`B0BBB2222/xoxb…`, `abc/xyz`), which covers parts too
 * short to register alone when echoed within a path, and scrubs from a segment boundary on so the
 * route words before it stay readable (`POST /hook/<redacted>`). The full URL is registered too.
 * Route words are never registered bare, so `hook`, `api` or `services` stay in every other log line.
 */
function registerSecretPath(pathname: string): void {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  const routeWord = (segment: string) => ROUTE_WORDS.has(segment.toLowerCase());
  segments.forEach((segment, index) => {
    if (routeWord(segment)) return;
    const laterCanHoldSecret = segments.slice(index + 1).some((later) => !routeWord(later));
    if (index === 0 && laterCanHoldSecret && !isTokenLike(segment)) return;
    registerEncodedForms(segment);
    registerEncodedForms(segments.slice(index).join('/'));
  });
}

/**
 * Registers the credentials a URL carries besides its path: a password and the Authorization header
 * it turns into, and query values (`?api_key=`). For node and API URLs, whose path segments (chain
 * ids, `/ext/bc/C/rpc`) are not secret and appear in logs by design.
 */
export function registerUrlCredentials(url: string | URL): void {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return;
  }
  if (parsed.password) {
    registerEncodedForms(parsed.password);
    const userinfo = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    registerSecret(Buffer.from(userinfo).toString('base64'));
  }
  for (const value of parsed.searchParams.values()) registerSecret(value);
  for (const [, raw] of parsed.search.matchAll(/[?&][^=&]*=([^&]*)/g)) registerSecret(raw);
}

/** Whether a leading path segment looks like a token or an id: long, or carrying digits or capitals. */
function isTokenLike(segment: string): boolean {
  if (segment.length < 8) return false;
  return segment.length >= 16 || !/^[a-z]+(?:[-_][a-z]+)*$/.test(segment);
}

function registerEncodedForms(value: string): void {
  registerSecret(value);
  try {
    registerSecret(decodeURIComponent(value));
  } catch {
    // Not valid percent-encoding: the raw form is all a receiver can echo.
  }
  registerSecret(encodeURIComponent(value));
}

/** Replaces every secret in a text, also in its JSON-escaped form (as it appears in a log line). */
export function scrubSecrets(text: string): string {
  let result = text;
  for (const secret of scrubOrder) {
    for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
      if (result.includes(form)) result = result.split(form).join(REDACTED);
    }
  }
  return result;
}

/** Strips user:password from a URL before it is shown anywhere. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return scrubSecrets(parsed.toString());
  } catch {
    return REDACTED;
  }
}

/**
 * A header value that carries a credential: the whole value, and the credential after an auth scheme
 * (`Bearer X`, `Token X`), since a gateway that refuses it quotes X alone ("invalid api key X"). A
 * Basic credential is also registered decoded, and its password on its own.
 */
export function registerHeaderSecret(value: string): void {
  registerSecret(value);
  const scheme = /^([A-Za-z][A-Za-z0-9._-]*)\s+(\S.*)$/.exec(value.trim());
  if (!scheme) return;
  const credential = scheme[2].trim();
  registerSecret(credential);
  if (scheme[1].toLowerCase() !== 'basic') return;
  const decoded = Buffer.from(credential, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return;
  registerSecret(decoded);
  registerSecret(decoded.slice(colon + 1));
}
