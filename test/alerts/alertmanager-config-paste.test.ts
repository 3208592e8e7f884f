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
    expect(issuesOf(receivers('email_configs: [{ to: ops@example.com }]'))).toEqual([
      'alerts.receivers[0].email_configs: avaxmon does not send email itself: send these alerts through an Alertmanager (a receiver with type: alertmanager), or use webhook_configs, slack_configs, pagerduty_configs, telegram_configs, discord_configs',
    ]);
    expect(issuesOf(receivers('pagerduty_configs: [{ service_key: abc }]'))).toEqual([
      'alerts.receivers[0].pagerduty_configs[0].service_key: PagerDuty Events API v1 is not supported: use routing_key (the integration key of an Events API v2 integration)',
    ]);
    expect(
      issuesOf(receivers('webhook_configs: [{ url: "https://x.example", http_config: { bearer_token: a, basic_auth: { username: u } } }]')),
    ).toEqual([
      'alerts.receivers[0].webhook_configs[0].http_config: set at most one of authorization, basic_auth and bearer_token, not basic_auth and bearer_token',
    ]);
    const basic = receivers('webhook_configs: [{ url: "https://x.example", http_config: { basic_auth: { username: u, password: p } } }]');
    expect(parseConfig(basic).alerts!.receivers[0].authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
  });
});
