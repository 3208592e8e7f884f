import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { requireTool } from '../helpers/tools.js';
import { HOOK, startDifferential, type Differential, type Side } from './differential/driver.js';
import { hasAlertmanager } from './differential/run.js';
import { DEFAULT_ALERTS, fleet, steps } from './differential/scenarios.js';
import type { RecordedRequest } from './recorder.js';

const AMTOOL = '/usr/bin/amtool';
const hasAmtool = requireTool(AMTOOL, 'prometheus-alertmanager');
const API_KEY = 'genie-0123456789abcdef';
const UPDATING_KEY = 'genie-updating-fedcba9876';

/**
 * An alertmanager.yml's opsgenie receiver as operators write it: literal responders, tags, priority
 * and details; and one with Alertmanager's defaults that updates the open alert's texts.
 */
const ROUTING = `route:
  receiver: pager
  group_by: [alertname]
  group_wait: 500ms
  group_interval: 1s
  repeat_interval: 1h
  routes:
    - matchers: ['severity="critical"']
      receiver: pager
receivers:
  - name: pager
    opsgenie_configs:
      - api_key: ${API_KEY}
        api_url: ${HOOK}/
        priority: P1
        tags: avalanche,validators
        note: from the fleet
        entity: fleet
        details: { runbook: https://runbooks.example.com/node-unhealthy }
        responders:
          - { name: ops, type: team }
          - { name: 'sre,dba', type: teams }
          - { username: oncall@example.com, type: user }
      - api_key: ${UPDATING_KEY}
        api_url: ${HOOK}/
        update_alerts: true
inhibit_rules: []
`;

/** What both sides must send alike: everything but the source, which names each one's own UI. */
function comparable(request: RecordedRequest) {
  const { source, ...body } = request.json as { source?: string };
  return {
    method: request.method,
    path: request.path,
    authorization: request.headers.authorization,
    contentType: request.headers['content-type'],
    body,
    // A close and a create carry a source; an update carries none.
    hasSource: typeof source === 'string' && source.length > 0,
  };
}

describe.skipIf(!hasAlertmanager)('opsgenie_configs beside the real Alertmanager 0.25', () => {
  it('creates, updates and closes the same Opsgenie alert, alias and texts alike', async () => {
    const differential: Differential = await startDifferential(ROUTING, DEFAULT_ALERTS);
    try {
      const closed = (side: Side) => side.hook.requests.filter((request) => request.path.includes('/close')).length >= 2;
      await steps(differential, fleet([0, 1]), fleet([1]));
      await differential.holdUntil(fleet([]), () => closed(differential.ours) && closed(differential.theirs));
      // The two integrations notify independently: each one's requests in order.
      const byKey = (side: Side) => Object.groupBy(side.hook.requests.map(comparable), (request) => request.authorization ?? 'none');
      const [ours, theirs] = [byKey(differential.ours), byKey(differential.theirs)];
      expect(Object.keys(theirs).sort()).toEqual([`GenieKey ${API_KEY}`, `GenieKey ${UPDATING_KEY}`]);
      expect(
        theirs[`GenieKey ${UPDATING_KEY}`]!.map((request) => `${request.method} ${request.path.replace(/[0-9a-f]{64}/, 'ALIAS')}`),
      ).toEqual([
        'POST /hook/v2/alerts',
        'PUT /hook/v2/alerts/ALIAS/message?identifierType=alias',
        'PUT /hook/v2/alerts/ALIAS/description?identifierType=alias',
        'POST /hook/v2/alerts',
        'PUT /hook/v2/alerts/ALIAS/message?identifierType=alias',
        'PUT /hook/v2/alerts/ALIAS/description?identifierType=alias',
        'POST /hook/v2/alerts/ALIAS/close?identifierType=alias',
      ]);
      // Fired with two, then one of them resolved, then closed: three requests on Alertmanager's side.
      const pager = theirs[`GenieKey ${API_KEY}`]!;
      expect(pager.map((request) => `${request.method} ${request.path.replace(/[0-9a-f]{64}/, 'ALIAS')}`)).toEqual([
        'POST /hook/v2/alerts',
        'POST /hook/v2/alerts',
        'POST /hook/v2/alerts/ALIAS/close?identifierType=alias',
      ]);
      expect(pager[0].body).toMatchObject({ message: '[FIRING:2] AvalancheNodeUnhealthy (critical)', priority: 'P1' });
      expect(pager[1].body).toMatchObject({ message: '[FIRING:1] AvalancheNodeUnhealthy (critical)' });
      if (process.env.DIFF_DEBUG) console.log(JSON.stringify(ours, null, 1));
      expect(ours).toEqual(theirs);
    } finally {
      await differential.close();
    }
  }, 90_000);

  it.skipIf(!hasAmtool)('is a config amtool check-config and avaxmon check-config both accept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-opsgenie-'));
    try {
      const routing = ROUTING.replaceAll(HOOK, 'https://api.eu.opsgenie.com');
      writeFileSync(join(dir, 'alertmanager.yml'), routing);
      const amtool = spawnSync(AMTOOL, ['check-config', join(dir, 'alertmanager.yml')], { encoding: 'utf8' });
      expect(amtool.status, amtool.stdout + amtool.stderr).toBe(0);
      const indented = routing.replace(/^(?=.)/gm, '  ');
      const receivers = parseConfig(`alerts:\n${indented}`).alerts!.receivers;
      // Two routes send to pager, and pager has two integrations.
      expect(receivers.map((receiver) => [receiver.type, receiver.apiUrl, receiver.apiKey])).toEqual([
        ['opsgenie', 'https://api.eu.opsgenie.com/', API_KEY],
        ['opsgenie', 'https://api.eu.opsgenie.com/', UPDATING_KEY],
        ['opsgenie', 'https://api.eu.opsgenie.com/', API_KEY],
        ['opsgenie', 'https://api.eu.opsgenie.com/', UPDATING_KEY],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
