import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startRecorder, type Recorder } from '../alerts/recorder.js';
import {
  alertmanagerStatus,
  errorAnswer,
  gettableAlerts,
  gettableSilence,
  gettableSilences,
  postSilencesAnswer,
} from '../helpers/alertmanager-openapi.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { nodeUnhealthyAlertsYaml } from '../alerts/node-unhealthy-alerts.js';
import { until } from '../helpers/until.js';

/** The answer's JSON, checked against a definition of the spec; a mismatch names the field. */
async function conforming<T>(response: Response, status: number, definition: z.ZodType<T>): Promise<T> {
  expect(response.status, `${response.url}: ${response.status}`).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const parsed = definition.safeParse(await response.json());
  if (!parsed.success) throw new Error(`${response.url} does not match the Alertmanager API v2 spec: ${parsed.error.message}`);
  return parsed.data;
}

function silence(matcherValue: string, overrides: Record<string, unknown> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      matchers: [{ name: 'target', value: matcherValue, isRegex: false }],
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'ops',
      comment: 'planned restart',
      ...overrides,
    }),
  };
}

describe("every /api/v2 answer of the daemon matches Alertmanager's OpenAPI spec (v0.34.0)", () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-am-openapi-'));
  let hook: Recorder;
  let stack: Stack;

  beforeAll(async () => {
    hook = await startRecorder();
    stack = await startStack({
      extraYaml: nodeUnhealthyAlertsYaml(stateDir, hook.url),
    });
  });
  afterAll(async () => {
    await stack?.close();
    await hook?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('GET /status is an alertmanagerStatus', async () => {
    const status = await conforming(await fetch(`${stack.url}/api/v2/status`), 200, alertmanagerStatus);
    expect(status.cluster.status).toBe('disabled');
  });

  it('the silence routes answer postSilences, getSilences, getSilence and deleteSilence as specified', async () => {
    const { silenceID } = await conforming(await fetch(`${stack.url}/api/v2/silences`, silence('node-z')), 200, postSilencesAnswer);
    await conforming(await fetch(`${stack.url}/api/v2/silences`, silence('.*', { endsAt: 'soon' })), 400, errorAnswer);

    const listed = await conforming(await fetch(`${stack.url}/api/v2/silences`), 200, gettableSilences);
    expect(listed.map((listedSilence) => [listedSilence.id, listedSilence.status.state])).toEqual([[silenceID, 'active']]);
    const filtered = await conforming(
      await fetch(`${stack.url}/api/v2/silences?filter=${encodeURIComponent('target="node-z"')}`),
      200,
      gettableSilences,
    );
    expect(filtered.map((filteredSilence) => filteredSilence.id)).toEqual([silenceID]);
    await conforming(await fetch(`${stack.url}/api/v2/silences?filter=${encodeURIComponent('target=~"("')}`), 400, errorAnswer);

    const one = await conforming(await fetch(`${stack.url}/api/v2/silence/${silenceID}`), 200, gettableSilence);
    expect(one.matchers).toEqual([{ name: 'target', value: 'node-z', isRegex: false, isEqual: true }]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await fetch(`${stack.url}/api/v2/silence/${unknown}`)).status).toBe(404);
    // postSilences' 404: an update of a silence the daemon does not have.
    await conforming(await fetch(`${stack.url}/api/v2/silences`, silence('node-z', { id: unknown })), 404, errorAnswer);

    expect((await fetch(`${stack.url}/api/v2/silence/${silenceID}`, { method: 'DELETE' })).status).toBe(200);
    const expired = await conforming(await fetch(`${stack.url}/api/v2/silence/${silenceID}`), 200, gettableSilence);
    expect(expired.status.state).toBe('expired');

    // The state parameters of getSilences (v0.34.0): each state is listed unless it is set to false.
    const pending = await conforming(
      await fetch(`${stack.url}/api/v2/silences`, silence('node-y', { startsAt: new Date(Date.now() + 600_000).toISOString() })),
      200,
      postSilencesAnswer,
    );
    const idsWith = async (query: string) =>
      (await conforming(await fetch(`${stack.url}/api/v2/silences?${query}`), 200, gettableSilences)).map((listed) => listed.id).sort();
    expect(await idsWith('expired=false')).toEqual([pending.silenceID]);
    expect(await idsWith('pending=false')).toEqual([silenceID]);
    expect(await idsWith('active=true&expired=true&pending=true')).toEqual([silenceID, pending.silenceID].sort());
    expect(await idsWith(`expired=false&filter=${encodeURIComponent('target="node-z"')}`)).toEqual([]);
  });

  it('GET /alerts is gettableAlerts, for an active alert and for a silenced one', async () => {
    stack.sim.apply({ fail_check: 'router' });
    const firing = async () =>
      conforming(await fetch(`${stack.url}/api/v2/alerts?filter=alertname%3D%22AvalancheNodeUnhealthy%22`), 200, gettableAlerts);
    await until(async () => (await firing()).length > 0);
    const [active] = await firing();
    expect(active.status).toEqual({ state: 'active', silencedBy: [], inhibitedBy: [], mutedBy: [] });
    expect(active.receivers).toEqual([{ name: 'hook' }]);

    const { silenceID } = await conforming(await fetch(`${stack.url}/api/v2/silences`, silence('node-a')), 200, postSilencesAnswer);
    await until(async () => (await firing())[0]?.status.state === 'suppressed');
    const [silenced] = await firing();
    expect(silenced.status).toEqual({ state: 'suppressed', silencedBy: [silenceID], inhibitedBy: [], mutedBy: [] });
    await conforming(await fetch(`${stack.url}/api/v2/alerts?filter=${encodeURIComponent('alertname=~"("')}`), 400, errorAnswer);
  });

  it('GET /alerts?receiver= keeps the alerts routed to a receiver whose whole name the regex matches', async () => {
    stack.sim.apply({ fail_check: 'router' });
    const routedTo = async (receiver: string) =>
      (
        await conforming(
          await fetch(
            `${stack.url}/api/v2/alerts?filter=alertname%3D%22AvalancheNodeUnhealthy%22&receiver=${encodeURIComponent(receiver)}`,
          ),
          200,
          gettableAlerts,
        )
      ).length;
    await until(async () => (await routedTo('hook')) > 0);
    expect(await routedTo('h.*|pager')).toBe(1);
    // Anchored at both ends, as Alertmanager compiles it.
    expect(await routedTo('ho')).toBe(0);
    expect(await routedTo('pager')).toBe(0);
    const refused = await conforming(await fetch(`${stack.url}/api/v2/alerts?receiver=${encodeURIComponent('(')}`), 400, errorAnswer);
    expect(refused).toMatch(/^receiver: "\(" is not a valid RE2 regular expression/);
  });
});
