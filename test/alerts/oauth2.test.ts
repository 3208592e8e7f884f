import { afterEach, describe, expect, it } from 'vitest';
import { OAuth2TokenSource, type OAuth2Settings } from '../../src/alerts/dispatch/notify/receivers/oauth2-token.js';
import { HttpClient } from '../../src/clients/http.js';
import { parseConfig } from '../../src/config/load.js';
import { scrubSecrets } from '../../src/config/redact.js';
import { issuesOf } from '../helpers/config-issues.js';
import { drained, health, sec, startAlerting, type Harness } from './harness.js';
import { startRecorder, type RecordedRequest, type Recorder } from './recorder.js';

const SECRET = 'oauth-client-secret-5e6f7a8b';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A real token endpoint on loopback: answers each grant with a numbered token, or as `answer` says. */
async function startTokenServer(expiresIn = 3600): Promise<Recorder & { issued: () => number }> {
  const server = await startRecorder();
  let issued = 0;
  server.respond = () => ({
    status: 200,
    body: JSON.stringify({ access_token: `tok-${++issued}-9f8e7d6c`, token_type: 'bearer', expires_in: expiresIn }),
  });
  closers.push(() => server.close());
  return Object.assign(server, { issued: () => issued });
}

const form = (request: RecordedRequest) => Object.fromEntries(new URLSearchParams(request.body));

describe('http_config.oauth2: the client-credentials grant', () => {
  it('fetches a token as Go’s oauth2 does, keeps it until 10s before it expires, then renews it', async () => {
    const tokens = await startTokenServer(60);
    const http = new HttpClient({ maxResponseBytes: 1 << 20 });
    closers.push(() => http.close());
    const settings: OAuth2Settings = {
      tokenUrl: `${tokens.url}/oauth/token`,
      clientId: 'avaxmon client',
      clientSecret: SECRET,
      scopes: ['alerts.write', 'alerts.read'],
      endpointParams: { audience: 'https://hooks.example.com' },
    };
    const source = new OAuth2TokenSource(settings);
    const at = (seconds: number) => source.authorization(http, sec(seconds), 5_000);
    expect(await Promise.all([at(0), at(0)])).toEqual(['Bearer tok-1-9f8e7d6c', 'Bearer tok-1-9f8e7d6c']);
    expect(await at(49)).toBe('Bearer tok-1-9f8e7d6c');
    expect(await at(51)).toBe('Bearer tok-2-9f8e7d6c');
    expect(tokens.requests).toHaveLength(2);
    const [grant] = tokens.requests;
    expect([grant.method, grant.path, grant.headers['content-type']]).toEqual([
      'POST',
      '/oauth/token',
      'application/x-www-form-urlencoded',
    ]);
    expect(form(grant)).toEqual({
      grant_type: 'client_credentials',
      scope: 'alerts.write alerts.read',
      audience: 'https://hooks.example.com',
    });
    expect(grant.headers.authorization).toBe(`Basic ${Buffer.from(`avaxmon+client:${SECRET}`).toString('base64')}`);
    // The replaced token is no secret any more; the one in use is.
    expect(scrubSecrets('tok-1-9f8e7d6c tok-2-9f8e7d6c')).toBe('tok-1-9f8e7d6c <redacted>');
  });

  it('sends the credentials in the form when the endpoint refuses them as Basic auth, and keeps doing so', async () => {
    const tokens = await startTokenServer();
    let refused = 0;
    tokens.respond = (request) => {
      if (request.headers.authorization) {
        refused++;
        return { status: 401, body: '{"error":"invalid_client"}' };
      }
      // Expired on arrival (under the 10s margin), so each call below fetches anew.
      return {
        status: 200,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'access_token=form-token-1a2b&token_type=bearer&expires_in=1',
      };
    };
    const { http, source } = plainClient(`${tokens.url}/t`);
    expect(await source.authorization(http, sec(0), 5_000)).toBe('Bearer form-token-1a2b');
    expect(await source.authorization(http, sec(1), 5_000)).toBe('Bearer form-token-1a2b');
    expect([refused, tokens.requests.length]).toEqual([1, 2]);
    expect(form(tokens.requests[0])).toEqual({ grant_type: 'client_credentials', client_id: 'id', client_secret: SECRET });
  });

  it('says which token URL failed and why, without the secret', async () => {
    const tokens = await startTokenServer();
    tokens.respond = () => ({ status: 500, body: `upstream down (client_secret=${SECRET})` });
    parseConfig(oauth2Receiver(`${tokens.url}/t`, 'http://127.0.0.1:9/hook'));
    const { http, source } = plainClient(`${tokens.url}/t`);
    const error = await source.authorization(http, sec(0), 5_000).then(
      () => undefined,
      (reason: Error) => scrubSecrets(reason.message),
    );
    expect(error).toBe(`cannot get an OAuth2 token from ${tokens.url}/t: HTTP 500: upstream down (client_secret=<redacted>)`);
  });

  it('is checked as Prometheus checks it', () => {
    expect(issuesOf(oauth2Receiver('not-a-url', 'https://hooks.example.com', 'client_id: id'))).toEqual([
      'alerts.receivers[0].webhook_configs[0].http_config.oauth2.token_url: must be an http(s) URL',
    ]);
    expect(issuesOf(oauth2Receiver('https://idp.example.com/t', 'https://hooks.example.com', 'client_id: id', ''))).toEqual([
      'alerts.receivers[0].webhook_configs[0].http_config.oauth2.client_secret: set client_secret or client_secret_file',
    ]);
    expect(
      issuesOf(
        oauth2Receiver(
          'https://idp.example.com/t',
          'https://hooks.example.com',
          'client_id: id',
          `client_secret: ${SECRET}\n              scopes: [a]\n              endpoint_params: { scope: b, resource: r }`,
        ),
      ),
    ).toEqual(['alerts.receivers[0].webhook_configs[0].http_config.oauth2.endpoint_params.scope: must not set scope: use scopes']);
    expect(
      issuesOf(
        oauth2Receiver(
          'https://idp.example.com/t',
          'https://hooks.example.com',
          'client_id: id',
          `client_secret: ${SECRET}`,
          'bearer_token: b',
        ),
      ),
    ).toEqual([
      'alerts.receivers[0].webhook_configs[0].http_config: set at most one of authorization, basic_auth, oauth2 and bearer_token, not oauth2 and bearer_token',
    ]);
  });
});

describe('a receiver with http_config.oauth2', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.close();
  });

  it('sends the token as Bearer; a failing token endpoint is retried and the notification still arrives', async () => {
    const tokens = await startTokenServer();
    let down = true;
    tokens.respond = () =>
      down
        ? { status: 503, body: 'maintenance' }
        : { status: 200, body: JSON.stringify({ access_token: 'live-token-3c4d', expires_in: 3600 }) };
    const harness = await startAlerting(
      `  route: { receiver: guarded, group_wait: 0s, group_interval: 1s }
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }`,
      `    - name: guarded
      webhook_configs:
        - url: HOOK_URL/guarded
          http_config:
            oauth2: { client_id: avaxmon, client_secret: ${SECRET}, token_url: "${tokens.url}/token", scopes: [notify] }`,
    );
    harnesses.push(harness);
    harness.alerting.evaluate(health(0), sec(0));
    const failed = () => harness.alerting.lastDelivery('guarded')?.error;
    for (const deadline = Date.now() + 30_000; !failed(); ) {
      if (Date.now() > deadline) throw new Error('no failed delivery recorded');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(harness.alerting.lastDelivery('guarded')).toMatchObject({
      outcome: 'retried',
      error: `cannot get an OAuth2 token from ${tokens.url}/token: HTTP 503: maintenance`,
    });
    expect(harness.hook.requests).toEqual([]);
    down = false;
    await drained(harness.alerting);
    const [delivered] = harness.hook.requests;
    expect(delivered.headers.authorization).toBe('Bearer live-token-3c4d');
    expect((delivered.json as { alerts: unknown[] }).alerts).toHaveLength(1);
  });
});

/** A token source for client `id` with no scopes or parameters, and the HTTP client it fetches with. */
function plainClient(tokenUrl: string): { http: HttpClient; source: OAuth2TokenSource } {
  const http = new HttpClient({ maxResponseBytes: 1 << 20 });
  closers.push(() => http.close());
  return { http, source: new OAuth2TokenSource({ tokenUrl, clientId: 'id', clientSecret: SECRET, scopes: [], endpointParams: {} }) };
}

function oauth2Receiver(tokenUrl: string, url: string, id = 'client_id: id', secret = `client_secret: ${SECRET}`, extra = ''): string {
  return `alerts:
  route: { receiver: r }
  receivers:
    - name: r
      webhook_configs:
        - url: "${url}"
          http_config:
            ${extra}
            oauth2:
              ${id}
              ${secret}
              token_url: "${tokenUrl}"
`;
}
