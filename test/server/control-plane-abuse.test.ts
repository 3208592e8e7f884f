import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { linearRegex } from '../../src/alerts/matchers/linear-regex.js';
import { SILENCE_LIMITS } from '../../src/alerts/dispatch/silence/silences.js';
import { registerHeaderSecret, scrubSecrets } from '../../src/config/redact.js';
import type { WebOptions } from '../../src/server/web-config.js';
import { spellingsOf, WRITE_ROUTES } from '../helpers/path-spellings.js';
import { parseExposition, startStack, valueOf, type Stack } from '../helpers/stack.js';
import { until } from '../helpers/until.js';

/** Attacks on the control plane, as a client on the same network or a web page in an operator's browser would make them. */

const REMOTE = '10.20.30.40';
const stacks: Stack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});

async function alertingStack(options: { web?: WebOptions; stateDir?: string; extraYaml?: string } = {}): Promise<Stack> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'avaxmon-plane-'));
  const stack = await startStack({
    web: options.web,
    extraYaml: `alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
${options.extraYaml ?? ''}`,
  });
  stacks.push(stack);
  return stack;
}

function silence(
  overrides: Record<string, unknown> = {},
  matchers: unknown[] = [{ name: 'target', value: 'node-a', isRegex: false }],
): Record<string, unknown> {
  const now = Date.now();
  return {
    matchers,
    startsAt: new Date(now).toISOString(),
    endsAt: new Date(now + 3_600_000).toISOString(),
    createdBy: 'ops',
    comment: 'maintenance',
    ...overrides,
  };
}

type Inject = {
  method?: 'GET' | 'POST' | 'DELETE';
  url: string;
  remoteAddress?: string;
  headers?: Record<string, string>;
  payload?: unknown;
};

/** A request as it arrives over the network, from `remoteAddress` (loopback unless said otherwise). */
function request(stack: Stack, { method = 'GET', url, remoteAddress = '127.0.0.1', headers = {}, payload }: Inject) {
  return stack.daemon.app.inject({
    method,
    url,
    remoteAddress,
    headers: { host: '127.0.0.1:9683', ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
}

describe('linear-time matching', () => {
  it('matches a catastrophic pattern against a long value at once, where a backtracking engine never finishes', () => {
    expect(linearRegex('(.*){30}!').test('a'.repeat(5_000))).toBe(false);
    expect(linearRegex('(x+x+)+y').test('x'.repeat(5_000))).toBe(false);
    expect(linearRegex('warning|info').test('info')).toBe(true);
    expect(linearRegex('warning|info').test('xinfo')).toBe(false);
  });

  it('refuses what RE2 refuses (backreferences, lookaround), patterns past the length cap, and programs past the size cap', () => {
    expect(() => linearRegex('(a)\\1')).toThrow(/RE2/);
    expect(() => linearRegex('(?=a)a')).toThrow(/RE2/);
    expect(() => linearRegex('a'.repeat(2_000))).toThrow(/at most 1024/);
    expect(() => linearRegex('((.*){30}){30}')).toThrow(/too complex/);
  });

  it('keeps answering while a catastrophic silence and filter meet a firing alert', async () => {
    const stack = await alertingStack();
    const posted = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      payload: silence({}, [{ name: 'alertname', value: '(.*){30}!', isRegex: true }]),
    });
    expect(posted.statusCode, posted.body).toBe(200);
    stack.sim.apply({ fail_check: 'router' });
    await until(async () =>
      (await request(stack, { url: '/api/v2/alerts' }))
        .json()
        .some((alert: { labels: Record<string, string> }) => alert.labels.alertname === 'AvalancheNodeUnhealthy'),
    );
    const filtered = await request(stack, { url: `/api/v2/alerts?filter=${encodeURIComponent('alertname=~"(.*){9}!"')}` });
    expect(filtered.statusCode).toBe(200);
    expect(filtered.json()).toEqual([]);
    expect((await fetch(`${stack.url}/-/healthy`)).status).toBe(200);
    const refused = await request(stack, { url: `/api/v2/alerts?filter=${encodeURIComponent('alertname=~"(?=a)a"')}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('RE2');
  });

  it('starts healthy on a poisoned state_dir, dropping the silences it would refuse if posted', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-poisoned-'));
    const base = {
      startsAt: '2026-01-01T00:00:00Z',
      endsAt: '2099-01-01T00:00:00Z',
      createdBy: 'x',
      comment: 'x',
      updatedAt: '2026-01-01T00:00:00Z',
    };
    writeFileSync(
      join(stateDir, 'silences.json'),
      JSON.stringify({
        version: 1,
        silences: [
          { id: 'backtracking', matchers: [{ name: 'alertname', value: '(?=a)((.*){30})*!', isRegex: true }], ...base },
          { id: 'huge', matchers: [{ name: 'target', value: 'node-a', isRegex: false }], ...base, comment: 'x'.repeat(100_000) },
          { id: 'fine', matchers: [{ name: 'target', value: 'node-b', isRegex: false }], ...base, endsAt: '2026-12-01T00:00:00Z' },
        ],
      }),
    );
    const stack = await alertingStack({ stateDir });
    expect((await fetch(`${stack.url}/-/healthy`)).status).toBe(200);
    const ids = (await request(stack, { url: '/api/v2/silences' })).json().map((each: { id: string }) => each.id);
    expect(ids).toEqual(['fine']);
    expect(stack.logs.filter((line) => line.includes('Stored silence refused'))).toHaveLength(2);
  });
});

describe('writes need authority', () => {
  it('refuses silences and reload from a remote anonymous client, naming the flag, and logs who asked', async () => {
    const stack = await alertingStack();
    const post = await request(stack, { method: 'POST', url: '/api/v2/silences', remoteAddress: REMOTE, payload: silence() });
    expect(post.statusCode).toBe(403);
    expect(post.body).toContain('--web.enable-silences');
    const reload = await request(stack, { method: 'POST', url: '/-/reload', remoteAddress: REMOTE });
    expect(reload.statusCode).toBe(403);
    expect(reload.body).toContain('--web.enable-lifecycle');
    const expire = await request(stack, { method: 'DELETE', url: '/api/v2/silence/any', remoteAddress: REMOTE });
    expect(expire.statusCode).toBe(403);
    // Reading stays open, as Prometheus and Alertmanager expect.
    expect((await request(stack, { url: '/api/v2/silences', remoteAddress: REMOTE })).statusCode).toBe(200);
    expect((await request(stack, { url: '/metrics', remoteAddress: REMOTE })).statusCode).toBe(200);
    const refusal = stack.logs.map((line) => JSON.parse(line)).find((line) => line.msg === 'State-changing request refused');
    expect(refusal).toMatchObject({ client: REMOTE, path: '/api/v2/silences', method: 'POST' });
    expect((await request(stack, { method: 'POST', url: '/api/v2/silences', payload: silence() })).statusCode).toBe(200);
    const accepted = stack.logs.map((line) => JSON.parse(line)).find((line) => line.msg === 'State-changing request accepted');
    expect(accepted).toMatchObject({ client: '127.0.0.1', path: '/api/v2/silences' });
  });

  it('decides on the matched route: no spelling of a write route changes state without authority, and each refusal is logged', async () => {
    const stack = await alertingStack();
    const kept = (await request(stack, { method: 'POST', url: '/api/v2/silences', payload: silence() })).json().silenceID as string;
    const tried: string[] = [];
    for (const route of WRITE_ROUTES) {
      const path = route.path.replace(/[0-9a-f-]{36}$/, kept);
      for (const url of [path, ...spellingsOf(path)]) {
        const logged = stack.logs.length;
        const answer = await request(stack, {
          method: route.method,
          url,
          remoteAddress: REMOTE,
          ...(route.method === 'POST' && route.path.includes('silences') ? { payload: silence() } : {}),
        });
        expect([403, 404, 405], `${route.method} ${url}: ${answer.body}`).toContain(answer.statusCode);
        const refusal = stack.logs.slice(logged).find((line) => line.includes('State-changing request refused'));
        expect(refusal, `${route.method} ${url}`).toBeDefined();
        expect(JSON.parse(refusal!)).toMatchObject({ client: REMOTE, method: route.method });
        tried.push(`${answer.statusCode} ${route.method} ${url}`);
      }
    }
    // The router decodes before it matches: these reach the write routes, and the guard sees them there.
    expect(tried).toContain('403 POST /api/v2/%73ilences');
    expect(tried).toContain(`403 DELETE /api/v2/%73ilence/${kept}`);
    expect(tried).toContain('403 POST /-/%72eload');
    const silences = (await request(stack, { url: '/api/v2/silences' })).json();
    expect(silences.map((each: { id: string; status: { state: string } }) => [each.id, each.status.state])).toEqual([[kept, 'active']]);
    // With authority, the spelling does not matter either: the route decides.
    expect((await request(stack, { method: 'POST', url: '/api/v2/%73ilences', payload: silence() })).statusCode).toBe(200);
  });

  it('gives no other method or override header a way around a write route', async () => {
    const stack = await alertingStack();
    const cases: Array<[Inject['method'] | 'HEAD' | 'OPTIONS' | 'PUT' | 'PATCH', string, Record<string, string>]> = [
      ['HEAD', '/-/reload', {}],
      ['OPTIONS', '/api/v2/silences', { 'access-control-request-method': 'POST', origin: 'http://evil.example' }],
      ['PUT', '/api/v2/silences', {}],
      ['PATCH', '/api/v2/silence/x', {}],
      ['GET', '/-/reload', { 'x-http-method-override': 'POST' }],
      ['GET', '/api/v2/silence/x', { 'x-http-method-override': 'DELETE', 'x-method-override': 'DELETE', 'x-http-method': 'DELETE' }],
      ['POST', '/-/reload?_method=GET', { 'x-http-method-override': 'GET' }],
    ];
    for (const [method, url, headers] of cases) {
      const answer = await stack.daemon.app.inject({ method, url, remoteAddress: REMOTE, headers: { host: '127.0.0.1:9683', ...headers } });
      expect([403, 404, 405], `${method} ${url}`).toContain(answer.statusCode);
      expect(answer.headers['access-control-allow-origin'], `${method} ${url}`).toBeUndefined();
    }
  });

  it('opens each endpoint with its own flag', async () => {
    const stack = await alertingStack({ web: { control: { enableSilences: true } } });
    expect((await request(stack, { method: 'POST', url: '/api/v2/silences', remoteAddress: REMOTE, payload: silence() })).statusCode).toBe(
      200,
    );
    expect((await request(stack, { method: 'POST', url: '/-/reload', remoteAddress: REMOTE })).statusCode).toBe(403);
  });

  it('gives basic-auth write users write access and other users read access', async () => {
    const users = { reader: bcrypt.hashSync('r-pass', 4), writer: bcrypt.hashSync('w-pass', 4) };
    const stack = await alertingStack({ web: { basicAuthUsers: users, control: { writeUsers: ['writer'] } } });
    const auth = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
    expect((await request(stack, { url: '/api/v2/silences', remoteAddress: REMOTE, headers: auth('reader', 'r-pass') })).statusCode).toBe(
      200,
    );
    const denied = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      remoteAddress: REMOTE,
      headers: auth('reader', 'r-pass'),
      payload: silence(),
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toContain('user "reader" may read but not change state');
    // Loopback does not lift a read-only user's limit: the user is who asked.
    expect(
      (await request(stack, { method: 'POST', url: '/api/v2/silences', headers: auth('reader', 'r-pass'), payload: silence() })).statusCode,
    ).toBe(403);
    const allowed = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      remoteAddress: REMOTE,
      headers: auth('writer', 'w-pass'),
      payload: silence(),
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const accepted = stack.logs.map((line) => JSON.parse(line)).find((line) => line.msg === 'State-changing request accepted');
    expect(accepted).toMatchObject({ client: REMOTE, user: 'writer' });
  });

  it('refuses cross-site and DNS-rebound requests, even from loopback', async () => {
    const stack = await alertingStack({ web: { control: { enableLifecycle: true, enableSilences: true } } });
    const crossOrigin = await request(stack, { method: 'POST', url: '/-/reload', headers: { origin: 'http://evil.example' } });
    expect(crossOrigin.statusCode).toBe(403);
    expect(crossOrigin.body).toContain('cross-site');
    const fetchMetadata = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: silence(),
    });
    expect(fetchMetadata.statusCode).toBe(403);
    const textPlain = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify(silence()),
    });
    expect(textPlain.statusCode).toBe(403);
    const rebound = await request(stack, {
      method: 'POST',
      url: '/-/reload',
      headers: { host: 'evil.example:9683', origin: 'http://evil.example:9683' },
    });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.body).toContain('DNS rebinding');
    const sameOrigin = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      headers: { origin: 'http://127.0.0.1:9683' },
      payload: silence(),
    });
    expect(sameOrigin.statusCode, sameOrigin.body).toBe(200);
  });

  it('accepts a named host from --web.allowed-hosts', async () => {
    const stack = await alertingStack({ web: { control: { allowedHosts: ['avaxmon.internal'] } } });
    const named = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      headers: { host: 'avaxmon.internal:9683', origin: 'http://avaxmon.internal:9683' },
      payload: silence(),
    });
    expect(named.statusCode, named.body).toBe(200);
    const other = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      headers: { host: 'other.internal:9683', origin: 'http://other.internal:9683' },
      payload: silence(),
    });
    expect(other.statusCode).toBe(403);
  });
});

describe('limits', () => {
  it('refuses silences past each limit, naming the field', async () => {
    const stack = await alertingStack();
    const post = (body: unknown, query = '') => request(stack, { method: 'POST', url: `/api/v2/silences${query}`, payload: body });
    const cases: Array<[unknown, RegExp]> = [
      [silence({ comment: 'x'.repeat(SILENCE_LIMITS.maxSizeBytes) }), /at most 8192 bytes/],
      [silence({ endsAt: new Date(Date.now() + 40 * 86_400_000).toISOString() }), /endsAt: a silence lasts at most 30 days/],
      [silence({ startsAt: 'tomorrow' }), /startsAt: must be an RFC 3339 time/],
      [silence({ startsAt: 1_700_000_000 }), /startsAt: must be an RFC 3339 time/],
      [
        silence(
          {},
          Array.from({ length: 33 }, (_, index) => ({ name: `l${index}`, value: 'v', isRegex: false })),
        ),
        /matchers: at most 32/,
      ],
      [silence({}, [{ name: 'target', value: 'node-a', isRegex: 'yes' }]), /matchers\[0\]\.isRegex: must be true or false/],
      [silence({ createdBy: 7 }), /createdBy: required/],
    ];
    for (const [body, message] of cases) {
      const answer = await post(body);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.body).toMatch(message);
    }
    expect((await post({ ...silence(), comment: 'x'.repeat(100_000) })).statusCode).toBe(413);
  });

  it('keeps at most the maximum number of unexpired silences', async () => {
    const stack = await alertingStack();
    for (let index = 0; index < SILENCE_LIMITS.maxSilences; index++) {
      stack.daemon.alerting!.silences.upsert(silence({}, [{ name: 'target', value: `node-${index}`, isRegex: false }]) as never);
    }
    const over = await request(stack, { method: 'POST', url: '/api/v2/silences', payload: silence() });
    expect(over.statusCode).toBe(400);
    expect(over.body).toContain(`at most ${SILENCE_LIMITS.maxSilences} active or pending silences`);
    const page = (await request(stack, { url: '/' })).body;
    expect(page.match(/target=&#34;node-/g) ?? []).toHaveLength(50);
    expect(page).toContain(`${SILENCE_LIMITS.maxSilences - 50} more silences`);
  });

  it('asks for confirmation before a silence that matches every alert, then flags it on the page and in a metric', async () => {
    const stack = await alertingStack();
    const everything = silence({}, [{ name: 'alertname', value: '.+', isRegex: true }]);
    const refused = await request(stack, { method: 'POST', url: '/api/v2/silences', payload: everything });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('would match every alert');
    const scoped = await request(stack, {
      method: 'POST',
      url: '/api/v2/silences',
      payload: silence({}, [{ name: 'alertname', value: 'Avalanche.+', isRegex: true }]),
    });
    expect(scoped.statusCode).toBe(200);
    expect((await request(stack, { method: 'POST', url: '/api/v2/silences?allow_match_all=true', payload: everything })).statusCode).toBe(
      200,
    );
    const samples = parseExposition((await request(stack, { url: '/metrics' })).body);
    expect(valueOf(samples, 'avaxmon_silences_matching_every_alert')).toBe(1);
    expect(valueOf(samples, 'avaxmon_silences', { state: 'active' })).toBe(2);
    expect((await request(stack, { url: '/' })).body).toContain('matches every alert');
  });
});

describe('no oracle, no echo', () => {
  it('shows what a client typed as typed, though it equals a configured secret', async () => {
    const secret = 'gateway-token-5fd1e0';
    const stack = await startStack({
      targetYaml: `headers: { Authorization: "Bearer ${secret}" }`,
      extraYaml: `alerts:\n  state_dir: ${mkdtempSync(join(tmpdir(), 'avaxmon-oracle-'))}\n`,
    });
    stacks.push(stack);
    expect(
      (await request(stack, { method: 'POST', url: '/api/v2/silences', payload: silence({ comment: `guess ${secret}` }) })).statusCode,
    ).toBe(200);
    const page = (await request(stack, { url: '/' })).body;
    expect(page).toContain(`guess ${secret}`);
  });

  it('registers the credential after an auth scheme, and a Basic password decoded', () => {
    registerHeaderSecret('Bearer only-the-token-9c1');
    expect(scrubSecrets('invalid api key only-the-token-9c1')).toBe('invalid api key <redacted>');
    registerHeaderSecret(`Basic ${Buffer.from('alice:hunter2-pass').toString('base64')}`);
    expect(scrubSecrets('user alice password hunter2-pass refused')).toBe('user alice password <redacted> refused');
  });

  it('shows a target URL to an anonymous remote reader without user info, path or query; the operator sees the path', async () => {
    const key = 'k3y-in-the-path-9f8e';
    const stack = await startStack({ targetUrl: `http://ops:pw-77aa@127.0.0.1:9/v3/${key}?api_key=q-secret-77` });
    stacks.push(stack);
    const remote = (await request(stack, { url: '/', remoteAddress: REMOTE })).body;
    expect(remote).toContain('<td>http://127.0.0.1:9</td>');
    for (const hidden of [key, 'q-secret-77', 'pw-77aa', 'ops:', '/v3']) expect(remote).not.toContain(hidden);
    const local = (await request(stack, { url: '/' })).body;
    expect(local).toContain(`http://127.0.0.1:9/v3/${key}?api_key=&#60;redacted&#62;`);
    expect(local).not.toContain('pw-77aa');
  });

  it('shows upstream error texts only to loopback or authenticated readers', async () => {
    const stack = await alertingStack();
    stack.sim.apply({ fault: { match: 'info.peers', kind: 'rpc_error', message: 'gateway says: key k-123 refused' } });
    await until(() =>
      [...stack.daemon.collectorStates.values()].some((state) => state.collector === 'peers' && state.lastError !== undefined),
    );
    const error = [...stack.daemon.collectorStates.values()].find((state) => state.collector === 'peers')!.lastError!;
    expect((await request(stack, { url: '/' })).body).toContain(error.slice(0, 20).replace(/"/g, '&#34;'));
    const remote = (await request(stack, { url: '/', remoteAddress: REMOTE })).body;
    expect(remote).not.toContain(error.slice(0, 20).replace(/"/g, '&#34;'));
    expect(remote).toContain('details for loopback or authenticated clients');
  });
});

describe('response headers', () => {
  it('sends a script-free Content-Security-Policy, nosniff, no framing and no referrer on every response', async () => {
    const stack = await alertingStack();
    for (const url of ['/', '/metrics', '/-/healthy', '/no-such-page', '/api/v2/silences']) {
      const answer = await request(stack, { url });
      expect(answer.headers['content-security-policy'], url).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
      expect(answer.headers['content-security-policy']).not.toContain('script-src');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});

describe('/probe is bounded', () => {
  const requestsIn = (body: string) =>
    parseExposition(body)
      .filter((sample) => sample.name === 'avaxmon_rpc_requests_total')
      .reduce((sum, sample) => sum + sample.value, 0);

  it('shares one run among concurrent probes of a target, serves it again within a second, and runs anew after', async () => {
    const stack = await startStack({ manualTime: true });
    stacks.push(stack);
    const probe = () => request(stack, { url: '/probe?target=node-a' });
    const concurrent = await Promise.all([probe(), probe(), probe(), probe(), probe()]);
    const oneRun = requestsIn(concurrent[0].body);
    expect(oneRun).toBeGreaterThan(5);
    for (const answer of concurrent) expect(answer.body).toBe(concurrent[0].body);
    expect(requestsIn((await probe()).body)).toBe(oneRun);
    await stack.time!.clock.advance(1_000);
    // A second run asks again, except for the static facts the first one remembered.
    expect(requestsIn((await probe()).body)).toBeGreaterThan(oneRun + 5);
  });

  it('answers 429 past probe.max_concurrent distinct runs', async () => {
    const stack = await alertingStack({ extraYaml: 'probe: { allowed_targets: ["http://localhost:*"], max_concurrent: 1 }' });
    // The same node by another name: a URL probe, a run of its own.
    const byUrlTarget = stack.sim.url.replace('127.0.0.1', 'localhost');
    stack.sim.apply({ fault: { match: '*', kind: 'slow', delay: '300ms' } });
    const [named, byUrl] = await Promise.all([
      request(stack, { url: '/probe?target=node-a' }),
      request(stack, { url: `/probe?target=${encodeURIComponent(byUrlTarget)}` }),
    ]);
    expect([named.statusCode, byUrl.statusCode].sort()).toEqual([200, 429]);
    const refused = named.statusCode === 429 ? named : byUrl;
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toContain('probe.max_concurrent');
  });
});
