import { describe, expect, it } from 'vitest';
import { HOOK } from './differential/driver.js';
import { hasAlertmanager, runScenario } from './differential/run.js';
import { fleet, rootOnly, runway, STEP_MS, steps, type Scenario } from './differential/scenarios.js';

/**
 * The differential suite, delivery half: send_resolved, a failing receiver while alerts fire and
 * resolve, flapping, a restart of avaxmon, max_alerts, a severity change and repeat timing, each
 * through avaxmon and the real Alertmanager from the same config text and alert stream.
 */

const statusesOf = (notifications: Array<{ alerts: ReadonlyArray<{ status: string; labels: Record<string, string> }> }>) =>
  notifications.map((body) => body.alerts.map((alert) => `${alert.status}:${alert.labels.target}:${alert.labels.severity}`));

/** Longer than Alertmanager's minimum notify timeout (10s): its in-flight retries give up, and the catch-up is one flush. */
const OUTAGE_MS = 12_000;

/** Long beside the flapping's 2.4 s, so its flaps fall between two flushes with seconds to spare. */
const FLAP_GROUP_INTERVAL_MS = 6_000;

const scenarios: Scenario[] = [
  {
    name: 'send_resolved: false: firing notifications only, resolved alerts left out of later ones',
    routing: rootOnly('[alertname]').replace(`url: ${HOOK}`, `url: ${HOOK}\n        send_resolved: false`),
    run: (d) => steps(d, fleet([0, 1]), fleet([1]), fleet([1, 2]), fleet([])),
    expectTheirs: (theirs) => {
      expect(theirs.every((body) => body.alerts.every((alert) => alert.status === 'firing'))).toBe(true);
      expect(statusesOf(theirs).at(-1)).toEqual(['firing:validator-1:critical', 'firing:validator-2:critical']);
    },
  },
  {
    name: 'a failing receiver while alerts fire and resolve: one catch-up with the group’s whole state',
    routing: rootOnly('[alertname]'),
    run: async (d) => {
      await steps(d, fleet([0]));
      d.answer(500);
      await d.hold(fleet([0, 1]), 1_000);
      await d.hold(fleet([1, 2]), 1_000);
      await d.hold(fleet([2]), OUTAGE_MS - 2_000);
      d.answer(200);
      await steps(d, fleet([2]));
    },
    expectTheirs: (theirs) => {
      expect(theirs).toHaveLength(2);
      expect(statusesOf(theirs)[1].sort()).toEqual([
        'firing:validator-2:critical',
        'resolved:validator-0:critical',
        'resolved:validator-1:critical',
      ]);
    },
  },
  {
    name: 'flapping: changes faster than group_interval are merged into the next notification',
    // Every flap falls between two flushes, well clear of both, however slowly a busy machine runs
    // the two sides: the flushes then see the same state on both.
    routing: rootOnly('[alertname]', '', `${FLAP_GROUP_INTERVAL_MS}ms`),
    run: async (d) => {
      await d.holdUntil(fleet([0]), () => d.ours.hook.requests.length >= 1 && d.theirs.hook.requests.length >= 1);
      for (let flap = 0; flap < 4; flap++) {
        await d.hold(fleet([0, 1]), 300);
        await d.hold(fleet([0]), 300);
      }
      await d.hold(fleet([0]), FLAP_GROUP_INTERVAL_MS);
      await d.holdUntil(fleet([]), () => [d.ours, d.theirs].every((side) => side.notifications().at(-1)?.status === 'resolved'));
    },
    expectTheirs: (theirs) => {
      expect(theirs.map((body) => body.status)).toEqual(['firing', 'firing', 'resolved']);
      expect(statusesOf(theirs)[1].sort()).toEqual(['firing:validator-0:critical', 'resolved:validator-1:critical']);
    },
  },
  {
    name: 'a restart of avaxmon mid-incident: nothing announced twice, the resolve still sent',
    routing: rootOnly('[alertname]'),
    run: async (d) => {
      await steps(d, fleet([0, 1]));
      await d.restart();
      await steps(d, fleet([0, 1]), fleet([1]), fleet([]));
    },
    expectTheirs: (theirs) => expect(theirs.map((body) => body.status)).toEqual(['firing', 'firing', 'resolved']),
  },
  {
    name: 'max_alerts: the first alerts of the group, truncatedAlerts counting the rest',
    routing: rootOnly('[alertname]').replace(`url: ${HOOK}`, `url: ${HOOK}\n        max_alerts: 3`),
    run: (d) => steps(d, fleet([0, 1, 2, 3, 4, 5, 6]), fleet([])),
    expectTheirs: (theirs) => {
      expect(theirs.map((body) => [body.alerts.length, body.truncatedAlerts])).toEqual([
        [3, 4],
        [3, 4],
      ]);
    },
  },
  {
    name: 'a severity change: the old label set resolves in the notification that fires the new one',
    routing: rootOnly('[alertname]'),
    run: (d) => steps(d, runway(20), runway(5), runway(40)),
    expectTheirs: (theirs) => {
      expect(statusesOf(theirs)).toEqual([
        ['firing:l1-node:warning'],
        ['firing:l1-node:critical', 'resolved:l1-node:warning'],
        ['resolved:l1-node:critical'],
      ]);
    },
  },
  {
    name: 'repeat_interval counts from the group’s last notification, a resolve too',
    routing: rootOnly('[alertname]').replace('repeat_interval: 1h', 'repeat_interval: 4s'),
    run: async (d) => {
      await steps(d, fleet([0]));
      await d.hold(fleet([0, 1]), 1_500);
      await d.hold(fleet([0]), STEP_MS);
      // The resolve went out about 4.5 s in: the reminder is due about 8.5 s in, not 4.5 s (4 s after the first).
      await d.hold(fleet([0]), 3_000);
    },
    expectTheirs: (theirs) => {
      expect(statusesOf(theirs)).toEqual([
        ['firing:validator-0:critical'],
        ['firing:validator-0:critical', 'firing:validator-1:critical'],
        ['firing:validator-0:critical', 'resolved:validator-1:critical'],
        ['firing:validator-0:critical'],
      ]);
    },
  },
];

describe.skipIf(!hasAlertmanager)('avaxmon delivers as the real Alertmanager does', () => {
  for (const scenario of scenarios) it(scenario.name, () => runScenario(scenario), 60_000);
});
