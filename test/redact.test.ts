import { describe, expect, it } from 'vitest';
import { REDACTED, registerSecretUrl, registerUrlCredentials, scrubSecrets } from '../src/redact.js';

describe('secret URLs', () => {
  it('scrub the tokens and ids of a webhook path, not the words around them', () => {
    registerSecretUrl('https://hooks.slack.com/services/T0AAA1111/B0BBB2222/xoxbSlackToken3333');
    registerSecretUrl('https://discord.com/api/webhooks/112233445566778899/Discord-Token_abcdef');
    const echoed = 'HTTP 400: POST /services/T0AAA1111/B0BBB2222/xoxbSlackToken3333 and /api/webhooks/112233445566778899/Discord-Token_abcdef';
    expect(scrubSecrets(echoed)).toBe(`HTTP 400: POST /services/${REDACTED}/${REDACTED}/${REDACTED} and /api/webhooks/${REDACTED}/${REDACTED}`);
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
});
