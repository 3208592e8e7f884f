import { describe, expect, it } from 'vitest';
import { REDACTED, registerSecretUrl, registerUrlCredentials, scrubSecrets } from '../src/config/redact.js';

describe('secret URLs', () => {
  it('scrub the tokens and ids of a webhook path, not the words around them', () => {
    registerSecretUrl('https://hooks.slack.com/services/T0AAA1111/B0BBB2222/xoxbSlackToken3333');
    registerSecretUrl('https://discord.com/api/webhooks/112233445566778899/Discord-Token_abcdef');
    const echoed =
      'HTTP 400: POST /services/T0AAA1111/B0BBB2222/xoxbSlackToken3333 and /api/webhooks/112233445566778899/Discord-Token_abcdef';
    expect(scrubSecrets(echoed)).toBe(`HTTP 400: POST /services/${REDACTED} and /api/webhooks/${REDACTED}`);
  });

  it('scrub a short lowercase or mixed token in an echoed path and when an error quotes only the token', () => {
    registerSecretUrl('https://hooks.example/hook/mysecrettoken');
    registerSecretUrl('https://hooks.example/hook/ab12cd');
    expect(scrubSecrets('HTTP 400: POST /hook/mysecrettoken?x=1 and POST /hook/ab12cd/')).toBe(
      `HTTP 400: POST /hook/${REDACTED}?x=1 and POST /hook/${REDACTED}/`,
    );
    expect(scrubSecrets('{"error":"HTTP 401: invalid token mysecrettoken"}')).toBe(`{"error":"HTTP 401: invalid token ${REDACTED}"}`);
    expect(scrubSecrets('HTTP 401: unknown hook ab12cd')).toBe(`HTTP 401: unknown hook ${REDACTED}`);
  });

  it('scrub a short part echoed within a path, and a single-segment path that may be the token', () => {
    registerSecretUrl('https://hooks.example/hook/abc/xyz');
    registerSecretUrl('http://alertmanager.example:9093/amprefix');
    expect(scrubSecrets('POST /hook/abc/xyz failed; POST /amprefix/api/v2/alerts failed; prefix amprefix')).toBe(
      `POST /hook/${REDACTED} failed; POST /${REDACTED}/api/v2/alerts failed; prefix ${REDACTED}`,
    );
  });

  it('leave route words and a leading path word in every other log line', () => {
    registerSecretUrl('https://hooks.example/hooks/mytoken9');
    registerSecretUrl('https://hooks.example/webhook/secondtoken');
    registerSecretUrl('https://events.pagerduty.com/v2/enqueue');
    registerSecretUrl('http://am.example/api/v2/alerts');
    registerSecretUrl('https://hooks.example/prod/lowertoken');
    registerSecretUrl('https://api.telegram.example/bot123:abc/sendMessage');
    const unrelated = 'hook api services webhooks hooks webhook v2 enqueue alerts sendMessage prod: /api/v2/alerts /v2/enqueue /services/';
    expect(scrubSecrets(`${unrelated} token lowertoken`)).toBe(`${unrelated} token ${REDACTED}`);
  });

  it('scrub a whole URL as one, before the parts inside it', () => {
    registerSecretUrl('http://127.0.0.1:9/hook/whole-url-token-0001');
    expect(scrubSecrets('posting to http://127.0.0.1:9/hook/whole-url-token-0001 failed')).toBe(`posting to ${REDACTED} failed`);
  });

  it('scrub query values, passwords and the Authorization header a URL turns into', () => {
    registerUrlCredentials('https://user:pa55word-x@rpc.example.com/ext/bc/C/rpc?api_key=query-key-9876');
    const basic = Buffer.from('user:pa55word-x').toString('base64');
    expect(scrubSecrets(`GET /ext/bc/C/rpc?api_key=query-key-9876 authorization: Basic ${basic} pass pa55word-x`)).toBe(
      `GET /ext/bc/C/rpc?api_key=${REDACTED} authorization: Basic ${REDACTED} pass ${REDACTED}`,
    );
  });

  it('never blanks an ordinary word used as a path segment, such as the product name', () => {
    registerSecretUrl('http://127.0.0.1:9099/avaxmon');
    registerSecretUrl('https://hooks.example/monitoring/notify/k3yT0ken99');
    expect(scrubSecrets('{"service":"avaxmon","msg":"avaxmon listening","lock":"data/avaxmon.lock"} monitoring notify')).toBe(
      '{"service":"avaxmon","msg":"avaxmon listening","lock":"data/avaxmon.lock"} monitoring notify',
    );
    expect(scrubSecrets('POST /monitoring/notify/k3yT0ken99 refused k3yT0ken99')).toBe(
      `POST /monitoring/notify/${REDACTED} refused ${REDACTED}`,
    );
  });
});
