import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALERTMANAGER, startRealSystem } from '../helpers/real-systems.js';
import { requireTool } from '../helpers/tools.js';
import { health, startAlerting } from './harness.js';
import { startRecorder } from './recorder.js';

/**
 * avaxmon's silences reach its `alertmanager` receiver: a silenced alert is sent once with an end
 * time, so the real Alertmanager resolves it and pages no more, and it is not re-sent as firing
 * until the silence ends.
 */

const hasAlertmanager = requireTool(ALERTMANAGER, 'prometheus-alertmanager');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface AmWebhook {
  status: string;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!hasAlertmanager)('a silence made in avaxmon, at the Alertmanager it forwards to', () => {
  it('ends the alert there once, never re-sends it as firing, and fires it again when the silence ends', async () => {
    const hook = await startRecorder();
    cleanups.push(() => hook.close());
    const alertmanager = await startRealSystem(
      ALERTMANAGER,
      {
        'alertmanager.yml': `route:
  receiver: hook
  group_by: [alertname]
  group_wait: 200ms
  group_interval: 500ms
  repeat_interval: 1s
receivers:
  - name: hook
    webhook_configs: [{ url: ${hook.url}/hook }]
`,
      },
      (dir, listen) => [
        '--config.file=alertmanager.yml',
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=${listen}`,
        '--cluster.listen-address=',
      ],
    );
    cleanups.push(() => alertmanager.stop());
    const harness = await startAlerting(
      '  rules: { AvalancheNodeUnhealthy: { for: 0s }, AvalancheHealthCheckFailing: { enabled: false } }',
      `    - { name: am, type: alertmanager, url: ${alertmanager.url}, repeat_interval: 500ms }`,
    );
    cleanups.push(() => harness.close());
    const statuses = () => hook.requests.map((request) => (request.json as AmWebhook).status);
    const evaluateFor = async (value: number, ms: number) => {
      for (const end = Date.now() + ms; Date.now() < end; ) {
        harness.alerting.evaluate(health(value), Date.now());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    await evaluateFor(0, 1_000);
    await until(() => statuses().length >= 1);
    const silence = harness.alerting.silences.upsert({
      matchers: [{ name: 'target', value: 'validator-1', isRegex: false }],
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'test',
      comment: 'planned restart',
    });
    await evaluateFor(0, 1_000);
    await until(() => statuses().length >= 2);
    // Well past the receiver's resend interval and Alertmanager's repeat_interval: nothing fires again.
    await evaluateFor(0, 3_000);
    expect(statuses()).toEqual(['firing', 'resolved']);
    const active = await fetch(`${alertmanager.url}/api/v2/alerts?active=true&silenced=false&inhibited=false`).then(
      (response) => response.json() as Promise<unknown[]>,
    );
    expect(active).toHaveLength(0);

    harness.alerting.silences.expire(silence);
    await evaluateFor(0, 1_000);
    await until(() => statuses().length >= 3);
    // Alertmanager may repeat the new firing (its repeat_interval is 1s) before a slow machine looks.
    expect(statuses().slice(0, 3)).toEqual(['firing', 'resolved', 'firing']);
    expect(statuses().slice(3)).not.toContain('resolved');
  }, 60_000);
});
