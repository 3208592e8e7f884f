import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { issuesOf } from '../helpers/config-issues.js';
import { drained, health, sec, startAlerting, type Harness } from './harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** What operators paste from their alertmanager.yml, beyond what the differential scenarios cover. */
describe('a pasted alertmanager.yml', () => {
  it('reads a matcher list item holding several matchers in braces, and sends http_config credentials', async () => {
    const harness = await startAlerting(
      `  route:
    receiver: hook
    group_by: ['...']
    group_wait: 0s
    group_interval: 1s
    routes:
      - matchers: ['{alertname="AvalancheNodeUnhealthy", target!="validator-2"}']
        receiver: pasted
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }`,
      `    - name: pasted
      webhook_configs:
        - url: HOOK_URL/pasted
          http_config: { authorization: { credentials: s3cret-token } }`,
    );
    harnesses.push(harness);
    expect(harness.alerting.config.receivers.find((receiver) => receiver.name === 'pasted')?.authorization).toBe('Bearer s3cret-token');
    harness.alerting.evaluate([...health(0, 'validator-1'), ...health(0, 'validator-2')], sec(0));
    await drained(harness.alerting);
    const byPath = (path: string) => harness.hook.requests.filter((request) => request.path === path);
    const pasted = byPath('/pasted');
    expect(pasted.map((request) => (request.json as { alerts: Array<{ labels: { target: string } }> }).alerts[0].labels.target)).toEqual([
      'validator-1',
    ]);
    expect(pasted[0].headers.authorization).toBe('Bearer s3cret-token');
    expect((pasted[0].json as { groupKey: string }).groupKey).toMatch(
      /^\{\}\/\{alertname="AvalancheNodeUnhealthy",target!="validator-2"\}:/,
    );
    expect(
      byPath('/hook').map((request) => (request.json as { alerts: Array<{ labels: { target: string } }> }).alerts[0].labels.target),
    ).toEqual(['validator-2']);
    expect(byPath('/hook')[0].headers.authorization).toBeUndefined();
  });

  it('sends basic_auth as Alertmanager does, and names what it cannot take', () => {
    const receivers = (configs: string) => `alerts:
  route: { receiver: r }
  receivers:
    - name: r
      ${configs}
`;
    expect(issuesOf(receivers('victorops_configs: [{ routing_key: ops }]'))).toEqual([
      'alerts.receivers[0].victorops_configs: avaxmon does not send victorops itself: send these alerts through an Alertmanager (a receiver with type: alertmanager), or use webhook_configs, slack_configs, pagerduty_configs, opsgenie_configs, email_configs, telegram_configs, discord_configs',
    ]);
    expect(issuesOf(receivers('pagerduty_configs: [{ service_key: abc }]'))).toEqual([
      'alerts.receivers[0].pagerduty_configs[0].service_key: PagerDuty Events API v1 is not supported: use routing_key (the integration key of an Events API v2 integration)',
    ]);
    expect(
      issuesOf(receivers('webhook_configs: [{ url: "https://x.example", http_config: { bearer_token: a, basic_auth: { username: u } } }]')),
    ).toEqual([
      'alerts.receivers[0].webhook_configs[0].http_config: set at most one of authorization, basic_auth, oauth2 and bearer_token, not basic_auth and bearer_token',
    ]);
    const basic = receivers('webhook_configs: [{ url: "https://x.example", http_config: { basic_auth: { username: u, password: p } } }]');
    expect(parseConfig(basic).alerts!.receivers[0].authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
  });

  it('checks opsgenie_configs as Alertmanager does, naming the field', () => {
    const opsgenie = (config: string) => `alerts:
  route: { receiver: r }
  receivers:
    - name: r
      opsgenie_configs: [${config}]
`;
    expect(issuesOf(opsgenie('{ priority: P1 }'))).toEqual([
      'alerts.receivers[0].opsgenie_configs[0].api_key: needs api_key or api_key_file (avaxmon reads no alertmanager.yml global section: move global.opsgenie_api_key here)',
    ]);
    expect(issuesOf(opsgenie('{ api_key: k3y-1, responders: [{ type: team }, { name: ops, type: squad }] }'))).toEqual([
      'alerts.receivers[0].opsgenie_configs[0].responders[0]: a responder needs at least one of id, username or name',
      'alerts.receivers[0].opsgenie_configs[0].responders[1].type: must be one of team, teams, user, escalation, schedule',
    ]);
    expect(issuesOf(opsgenie('{ api_key: k3y-1, api_key_file: /run/secrets/genie }'))).toContain(
      'alerts.receivers[0].opsgenie_configs[0].api_key_file: set either api_key or api_key_file, not both',
    );
    expect(issuesOf(opsgenie('{ api_key: k3y-1, api_url: "not a url" }'))).toEqual([
      'alerts.receivers[0].opsgenie_configs[0].api_url: must be an http(s) URL',
    ]);
    const [receiver] = parseConfig(opsgenie('{ api_key: k3y-1, api_url: "https://api.eu.opsgenie.com", tags: "{{ .CommonLabels.team }}" }'))
      .alerts!.receivers;
    // Alertmanager appends v2/alerts to the URL's path, so it ends in "/"; a template is not sent as its text.
    expect([receiver.apiUrl, receiver.opsgenie?.tags]).toEqual(['https://api.eu.opsgenie.com/', undefined]);
  });

  it('opens an Opsgenie alert, retries a failing API and closes the alert by its alias', async () => {
    const harness = await startAlerting(
      `  route:
    receiver: genie
    group_by: [alertname]
    group_wait: 0s
    group_interval: 1s
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }`,
      `    - name: genie
      opsgenie_configs:
        - api_key: k3y-genie
          api_url: HOOK_URL/genie
          message: '{{ template "custom.title" . }}'`,
    );
    harnesses.push(harness);
    let failures = 2;
    harness.hook.respond = () =>
      failures-- > 0 ? { status: 503, body: 'busy' } : { status: 202, body: '{"result":"Request will be processed"}' };
    harness.alerting.evaluate(health(0, 'validator-1'), sec(0));
    await harness.hook.waitFor(1);
    harness.alerting.evaluate(health(1, 'validator-1'), sec(10));
    await harness.hook.waitFor(2);
    // Two 503s, then the create and the close went through.
    expect(failures).toBe(-2);
    const [create, close] = harness.hook.requests;
    const alias = (create.json as { alias: string }).alias;
    expect(create.path).toBe('/genie/v2/alerts');
    // A templated message is left to Alertmanager's default text, which avaxmon renders.
    expect(create.json).toMatchObject({ message: '[FIRING:1] AvalancheNodeUnhealthy (critical validator-1)' });
    expect(alias).toMatch(/^[0-9a-f]{64}$/);
    expect(close.path).toBe(`/genie/v2/alerts/${alias}/close?identifierType=alias`);
    expect(close.headers.authorization).toBe('GenieKey k3y-genie');
  });
});
