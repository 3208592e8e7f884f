import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { issuesOf } from '../helpers/config-issues.js';
import { scrubSecrets } from '../../src/config/redact.js';

describe('alerts config', () => {
  it('accepts the issue example and applies rule defaults and overrides', () => {
    const alerts = parseConfig(`alerts:
  state_dir: ./data
  repeat_interval: 4h
  rules:
    AvalancheNodeUnhealthy: { for: 1m, severity: critical }
    AvalanchePeersLow: { threshold: 20 }
    AvalancheUptimeDropping: { enabled: false }
    AvalancheChainStalled: { threshold: 10m }
  receivers:
    - name: ops-hook
      type: webhook
      url: https://hooks.example.com/avaxmon-secret-path
      severity: [critical, warning]
      match: { target: validator-1 }
`).alerts!;
    expect(alerts.repeatIntervalMs).toBe(4 * 3_600_000);
    expect(alerts.rules.AvalancheUptimeDropping.enabled).toBe(false);
    expect(alerts.rules.AvalancheNodeNotBootstrapped).toMatchObject({ enabled: true, forMs: 30 * 60_000 });
    expect(alerts.rules.AvalanchePeersLow.params.threshold).toBe(20);
    expect(alerts.rules.AvalancheChainStalled.params.threshold).toBe(600);
    expect(alerts.rules.AvalancheRewardingStakeLow.params).toEqual({ warning: 0.75 });
    expect(alerts.receivers[0]).toMatchObject({
      name: 'ops-hook',
      severities: ['critical', 'warning'],
      match: { target: 'validator-1' },
      sendResolved: true,
    });
    // Webhook URLs are secrets: they never reach logs or the status page.
    expect(scrubSecrets('posting to https://hooks.example.com/avaxmon-secret-path')).not.toContain('secret-path');
  });

  it('rejects an unknown receiver type', () => {
    expect(issuesOf('alerts:\n  receivers:\n    - { name: a, type: email, url: "https://x.example" }\n')).toEqual([
      expect.stringMatching(/^alerts\.receivers\[0\]\.type: /),
    ]);
  });

  it('names every bad path: unknown rule, unknown setting, bad value, missing fields, duplicates', () => {
    const found = issuesOf(`alerts:
  rules:
    AvalancheNodeDown: { for: 1m }
    AvalanchePeersLow: { threshold: lots, window: 1h }
  receivers:
    - { name: b, type: webhook }
    - { name: c, type: telegram, bot_token: "123:abc" }
    - { name: d, type: pagerduty, routing_key_file: /nonexistent/key }
    - { name: d, type: slack, url: "https://hooks.slack.com/x" }
`);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^alerts\.rules\.AvalancheNodeDown: unknown rule \(known: AvaxmonCollectionLagging, AvaxmonCollectorFailing, /,
        ),
        expect.stringMatching(/^alerts\.rules\.AvalanchePeersLow\.threshold: must be a number/),
        expect.stringMatching(
          /^alerts\.rules\.AvalanchePeersLow\.window: unknown setting \(AvalanchePeersLow accepts: enabled, for, severity, min_ratio, threshold\)/,
        ),
        'alerts.receivers[0].url: a webhook receiver needs exactly one url or url_file',
        'alerts.receivers[1].chat_id: a telegram receiver needs chat_id',
        expect.stringMatching(/^alerts\.receivers\[2\]\.routing_key_file: cannot read secret file/),
        'alerts.receivers[3].name: duplicate receiver name "d"',
      ]),
    );
  });
});
