import { describe, expect, it } from 'vitest';
import { HOOK } from './differential/driver.js';
import { hasAlertmanager, runScenario } from './differential/run.js';
import { fleet, rootOnly, steps, type Scenario } from './differential/scenarios.js';

/**
 * The differential suite, routing half: grouping variants, nested routes, `continue`, the legacy
 * matchers, inhibition, silences and time intervals, each through avaxmon and the real Alertmanager
 * from the same config text, with the same alert stream: the notifications must be identical.
 */

const firingCounts = (notifications: Array<{ alerts: ReadonlyArray<{ status: string }> }>) =>
  notifications.map((body) => body.alerts.filter((alert) => alert.status === 'firing').length);

const TIMING = `  group_wait: 500ms
  group_interval: 1s
  repeat_interval: 1h`;

const scenarios: Scenario[] = [
  {
    name: 'group_by [alertname]: partial failures and partial recoveries',
    routing: rootOnly('[alertname]'),
    run: (d) => steps(d, fleet([0, 1, 2]), fleet([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), fleet([3, 4, 5, 6, 7, 8, 9]), fleet([])),
    expectTheirs: (theirs) => {
      expect(theirs.map((body) => body.status)).toEqual(['firing', 'firing', 'firing', 'resolved']);
      expect(firingCounts(theirs)).toEqual([3, 10, 7, 0]);
    },
  },
  {
    name: 'group_by omitted: the route is one group (groupKey {}:{})',
    routing: rootOnly(undefined),
    run: (d) => steps(d, fleet([0], [1]), fleet([0, 2], [1]), fleet([])),
    expectTheirs: (theirs) => {
      expect(theirs.map((body) => body.groupKey)).toEqual(['{}:{}', '{}:{}', '{}:{}']);
      expect(firingCounts(theirs)).toEqual([2, 3, 0]);
    },
  },
  {
    name: "group_by ['...']: each alert its own group",
    routing: rootOnly("['...']"),
    run: (d) => steps(d, fleet([0, 1]), fleet([1]), fleet([])),
    expectTheirs: (theirs) => expect(theirs).toHaveLength(4),
  },
  {
    name: 'group_by two labels: one group per alertname and target',
    routing: rootOnly('[alertname, target]'),
    run: (d) => steps(d, fleet([0], [0]), fleet([0, 1], [0]), fleet([])),
    expectTheirs: (theirs) => expect(new Set(theirs.map((body) => body.groupKey)).size).toBe(3),
  },
  {
    name: 'nested routes: critical alerts to their own route, grouped by target; the rest at the root',
    routing: `route:
  receiver: hook
  group_by: [alertname]
${TIMING}
  routes:
    - matchers: [severity="critical"]
      receiver: pager
      group_by: [target]
receivers:
  - name: hook
    webhook_configs: [{ url: ${HOOK} }]
  - name: pager
    webhook_configs: [{ url: ${HOOK} }]
inhibit_rules: []
`,
    run: (d) => steps(d, fleet([0], [0, 1]), fleet([])),
    expectTheirs: (theirs) => {
      expect(theirs.map((body) => body.receiver).sort()).toEqual(['hook', 'hook', 'pager', 'pager']);
      expect(theirs.find((body) => body.receiver === 'pager')?.groupKey).toBe('{}/{severity="critical"}:{target="validator-0"}');
    },
  },
  {
    name: 'continue: an alert goes down both sibling routes, and not to the root',
    routing: `route:
  receiver: hook
  group_by: [alertname]
${TIMING}
  routes:
    - match: { alertname: AvalancheNodeUnhealthy }
      receiver: first
      continue: true
    - match_re: { target: "validator-[0-4]" }
      receiver: second
    - receiver: third
receivers:
  - name: hook
    webhook_configs: [{ url: ${HOOK} }]
  - name: first
    webhook_configs: [{ url: ${HOOK} }]
  - name: second
    webhook_configs: [{ url: ${HOOK} }]
  - name: third
    webhook_configs: [{ url: ${HOOK} }]
inhibit_rules: []
`,
    run: (d) => steps(d, fleet([0], [7]), fleet([])),
    expectTheirs: (theirs) => {
      const receivers = new Set(theirs.map((body) => body.receiver));
      expect(receivers).toEqual(new Set(['first', 'second', 'third']));
      expect(theirs.map((body) => body.groupKey)).toContain('{}/{target=~"^(?:validator-[0-4])$"}:{alertname="AvalancheNodeUnhealthy"}');
    },
  },
  {
    name: 'inhibit_rules: an unhealthy node mutes its not-ready alert, not another node’s',
    routing: rootOnly('[alertname, target]').replace(
      'inhibit_rules: []',
      `inhibit_rules:
  - source_matchers: [alertname="AvalancheNodeUnhealthy"]
    target_matchers: [alertname="AvalancheNodeNotReady"]
    equal: [target]`,
    ),
    run: (d) => steps(d, fleet([], [0]), fleet([0], [0, 1]), fleet([], [0, 1]), fleet([])),
    expectTheirs: (theirs) => {
      const firing = theirs.filter((body) => body.status === 'firing').map((body) => body.groupKey);
      expect(firing).toContain('{}:{alertname="AvalancheNodeNotReady", target="validator-1"}');
    },
  },
  {
    name: 'a silence: a silenced node is not notified; once expired, it is',
    routing: rootOnly('[alertname, target]'),
    run: async (d) => {
      const expire = await d.silence({ target: 'validator-0' }, 3_600_000);
      await steps(d, fleet([0, 1]));
      await expire();
      await steps(d, fleet([0, 1]), fleet([]));
    },
    expectTheirs: (theirs) => {
      expect(theirs.slice(0, 2).map((body) => `${body.status}:${body.groupLabels.target}`)).toEqual([
        'firing:validator-1',
        'firing:validator-0',
      ]);
      expect(theirs.slice(2).map((body) => body.status)).toEqual(['resolved', 'resolved']);
    },
  },
  {
    name: 'time intervals: a route muted now and a route active only in the past send nothing',
    routing: `route:
  receiver: hook
  group_by: [alertname]
${TIMING}
  routes:
    - matchers: [alertname="AvalancheNodeUnhealthy"]
      receiver: muted
      mute_time_intervals: [always]
      continue: true
    - matchers: [alertname="AvalancheNodeUnhealthy"]
      receiver: inactive
      active_time_intervals: [long-ago]
      continue: true
    - matchers: [alertname="AvalancheNodeUnhealthy"]
      receiver: open
      active_time_intervals: [always]
receivers:
  - name: hook
    webhook_configs: [{ url: ${HOOK} }]
  - name: muted
    webhook_configs: [{ url: ${HOOK} }]
  - name: inactive
    webhook_configs: [{ url: ${HOOK} }]
  - name: open
    webhook_configs: [{ url: ${HOOK} }]
time_intervals:
  - name: always
    time_intervals:
      - weekdays: ['sunday:saturday']
  - name: long-ago
    time_intervals:
      - years: ['2000:2001']
        months: ['january:june']
        location: Europe/Berlin
inhibit_rules: []
`,
    run: (d) => steps(d, fleet([0]), fleet([])),
    expectTheirs: (theirs) => expect(theirs.map((body) => body.receiver)).toEqual(['open', 'open']),
  },
];

describe.skipIf(!hasAlertmanager)('avaxmon routes and groups as the real Alertmanager does', () => {
  for (const scenario of scenarios) it(scenario.name, () => runScenario(scenario), 60_000);
});
