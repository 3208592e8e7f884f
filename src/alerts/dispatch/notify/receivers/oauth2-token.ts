import type { HttpClient } from '../../../../clients/http.js';
import type { HttpTransport } from '../../../../config/http-config-schema.js';
import { forgetSecret, registerHeaderSecret } from '../../../../config/redact.js';
import { UpstreamError } from '../../../../errors.js';

/** http_config.oauth2 as loaded: the client-credentials grant Prometheus' HTTP client makes. */
export interface OAuth2Settings {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  readonly endpointParams: Readonly<Record<string, string>>;
  /** The oauth2 block's own tls_config / proxy_url toward token_url. */
  readonly transport?: HttpTransport;
}

/** A token is renewed this long before it expires, as Go's oauth2 package does, so none is sent stale. */
const EXPIRY_MARGIN_MS = 10_000;

interface Token {
  readonly accessToken: string;
  readonly authorization: string;
  /** Undefined: the endpoint gave no expires_in, and the token is kept until a reload. */
  readonly expiresAtMs?: number;
}

/** Why a token could not be had: a delivery failure of the receiver, retried like any other. */
export class TokenError extends Error {}

/**
 * One client's token, fetched when first needed and kept until shortly before it expires; requests
 * that need it meanwhile wait for the same fetch. Each token is registered for redaction, and the
 * one it replaces forgotten, so the secrets list does not grow with every renewal.
 */
export class OAuth2TokenSource {
  private token?: Token;
  private fetching?: Promise<Token>;
  /** Go's oauth2 tries the credentials as Basic auth first, in the form if that fails, and keeps what worked. */
  private style: 'unknown' | 'header' | 'form' = 'unknown';

  constructor(private readonly settings: OAuth2Settings) {}

  async authorization(http: HttpClient, nowMs: number, timeoutMs: number): Promise<string> {
    if (this.token && (this.token.expiresAtMs === undefined || nowMs < this.token.expiresAtMs - EXPIRY_MARGIN_MS))
      return this.token.authorization;
    this.fetching ??= this.fetch(http, nowMs, timeoutMs).finally(() => (this.fetching = undefined));
    const token = await this.fetching;
    return token.authorization;
  }

  private async fetch(http: HttpClient, nowMs: number, timeoutMs: number): Promise<Token> {
    const ok = (status: number) => status >= 200 && status < 300;
    let answer = await this.request(http, timeoutMs, this.style === 'form');
    if (this.style === 'unknown') {
      if (!ok(answer.status)) answer = await this.request(http, timeoutMs, true);
      if (ok(answer.status)) this.style = answer.inForm ? 'form' : 'header';
    }
    if (!ok(answer.status)) throw this.error(`HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
    const token = this.parse(answer.text, answer.contentType, nowMs);
    if (this.token) for (const value of [this.token.authorization, this.token.accessToken]) forgetSecret(value);
    registerHeaderSecret(token.authorization);
    this.token = token;
    return token;
  }

  private async request(http: HttpClient, timeoutMs: number, inForm: boolean) {
    const { clientId, clientSecret, scopes, endpointParams, tokenUrl } = this.settings;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (inForm) {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    }
    if (scopes.length > 0) form.set('scope', scopes.join(' '));
    // As Go's clientcredentials: endpoint_params may replace grant_type (checked at load: nothing else).
    for (const [key, value] of Object.entries(endpointParams)) form.set(key, value);
    try {
      const response = await http.request({
        url: tokenUrl,
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'avaxmon',
          ...(inForm ? {} : { authorization: basicCredentials(clientId, clientSecret) }),
        },
        body: form.toString(),
        timeoutMs,
        upstream: `OAuth2 token endpoint ${tokenUrl}`,
        operation: 'token',
      });
      const contentType = response.headers['content-type'];
      return { status: response.status, text: response.text, contentType: String(contentType ?? ''), inForm };
    } catch (error) {
      if (error instanceof UpstreamError) throw this.error(error.message);
      throw error;
    }
  }

  /** JSON as RFC 6749 says; a form-encoded body as some endpoints answer and Go's oauth2 accepts. */
  private parse(text: string, contentType: string, nowMs: number): Token {
    let fields: { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
    try {
      fields =
        contentType.includes('application/x-www-form-urlencoded') || contentType.includes('text/plain')
          ? Object.fromEntries(new URLSearchParams(text))
          : (JSON.parse(text) as typeof fields);
    } catch {
      throw this.error('the answer is neither JSON nor a form');
    }
    if (typeof fields.access_token !== 'string' || fields.access_token === '') throw this.error('the answer has no access_token');
    const expiresIn = Number(fields.expires_in);
    return {
      accessToken: fields.access_token,
      authorization: `${tokenType(fields.token_type)} ${fields.access_token}`,
      expiresAtMs: Number.isFinite(expiresIn) && expiresIn > 0 ? nowMs + expiresIn * 1000 : undefined,
    };
  }

  private error(reason: string): TokenError {
    return new TokenError(`cannot get an OAuth2 token from ${this.settings.tokenUrl}: ${reason}`);
  }
}

/** Go's oauth2 Token.Type: the usual names capitalised as the schemes are written, Bearer when unsaid. */
function tokenType(type: unknown): string {
  if (typeof type !== 'string' || type === '') return 'Bearer';
  return { bearer: 'Bearer', mac: 'MAC', basic: 'Basic' }[type.toLowerCase()] ?? type;
}

/** RFC 6749 2.3.1: the id and secret form-encoded (Go's url.QueryEscape), then as Basic credentials. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64')}`;
}

/** Go's url.QueryEscape: form encoding, a space as "+". */
function formEncode(text: string): string {
  return new URLSearchParams({ v: text }).toString().slice(2);
}

/**
 * One source per client: the routes and integrations that name the same client share its token (an
 * identity provider may hand them the same one, which one of them must not forget while another
 * sends it), and a reload that keeps the client keeps the token.
 */
const sources = new Map<string, OAuth2TokenSource>();

export function tokenSourceOf(settings: OAuth2Settings): OAuth2TokenSource {
  const { tokenUrl, clientId, clientSecret, scopes, endpointParams } = settings;
  const key = JSON.stringify([tokenUrl, clientId, clientSecret, scopes, endpointParams]);
  let source = sources.get(key);
  if (!source) sources.set(key, (source = new OAuth2TokenSource(settings)));
  return source;
}
