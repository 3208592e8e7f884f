import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenSourceOf } from '../../src/alerts/dispatch/notify/receivers/oauth2-token.js';
import { HttpClient } from '../../src/clients/http.js';
import { parseConfig } from '../../src/config/load.js';
import { ALERTMANAGER, startRealSystem } from '../helpers/real-systems.js';
import { requireTool } from '../helpers/tools.js';
import { startRecorder, type RecordedRequest } from './recorder.js';

const hasAlertmanager = requireTool(ALERTMANAGER, 'prometheus-alertmanager');

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** What a token endpoint sees of a grant: everything but the client's User-Agent. */
function grant(request: RecordedRequest) {
  return {
    method: request.method,
    path: request.path,
    contentType: request.headers['content-type'],
    authorization: request.headers.authorization,
    form: Object.fromEntries(new URLSearchParams(request.body)),
  };
}

describe.skipIf(!hasAlertmanager)('http_config.oauth2 beside the real Alertmanager 0.25', () => {
  it('asks the token endpoint the same grant, and sends the token the same way', async () => {
    const [tokens, hook] = [await startRecorder(), await startRecorder()];
    closers.push(
      () => tokens.close(),
      () => hook.close(),
    );
    tokens.respond = () => ({
      status: 200,
      body: JSON.stringify({ access_token: 'shared-token-7e8f', token_type: 'bearer', expires_in: 3600 }),
    });
    const routing = `route: { receiver: r, group_wait: 0s }
receivers:
  - name: r
    webhook_configs:
      - url: ${hook.url}/hook
        http_config:
          oauth2:
            client_id: "avaxmon client"
            client_secret: "s3cret&more"
            token_url: ${tokens.url}/oauth/token
            scopes: [alerts.write, alerts.read]
            endpoint_params: { audience: "https://hooks.example.com" }
`;
    const alertmanager = await startRealSystem(ALERTMANAGER, { 'alertmanager.yml': routing }, (dir, listen) => [
      '--config.file=alertmanager.yml',
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=${listen}`,
      '--cluster.listen-address=',
    ]);
    closers.push(() => alertmanager.stop());
    const posted = await fetch(`${alertmanager.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ labels: { alertname: 'AvalancheNodeUnhealthy', target: 'validator-1' } }]),
    });
    expect(posted.status).toBe(200);
    await hook.waitFor(1, 30_000);
    const theirs = grant(tokens.requests[0]);
    expect(hook.requests[0].headers.authorization).toBe('Bearer shared-token-7e8f');

    const receiver = parseConfig(`alerts:\n${routing.replace(/^(?=.)/gm, '  ')}`).alerts!.receivers[0];
    const http = new HttpClient({ maxResponseBytes: 1 << 20 });
    closers.push(() => http.close());
    expect(await tokenSourceOf(receiver.oauth2!).authorization(http, Date.now(), 5_000)).toBe('Bearer shared-token-7e8f');
    expect(grant(tokens.requests[1])).toEqual(theirs);
    expect(theirs.form).toEqual({
      grant_type: 'client_credentials',
      scope: 'alerts.write alerts.read',
      audience: 'https://hooks.example.com',
    });
  }, 90_000);
});
