import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, scrape, valueOf } from '../helpers/stack.js';
import { settled, until, useDaemonProcesses } from './daemon-processes.js';
import { onePerIdempotencyKey, type RecordedRequest } from './recorder.js';

const THRESHOLD_SECONDS = 2;
const daemons = useDaemonProcesses();

interface WebhookAlert {
  readonly fingerprint: string;
  readonly startsAt: string;
  readonly labels: Record<string, string>;
}

/** The notifications about AvalancheChainStalled on the C-Chain, one per idempotency key; the simulated X-Chain stalls on its own. */
function chainC(requests: readonly RecordedRequest[]): Array<{ status: string; alert: WebhookAlert; key: string }> {
  return onePerIdempotencyKey(requests)
    .map((request) => ({
      body: request.json as { status: string; alerts: WebhookAlert[] },
      key: String(request.headers['idempotency-key']),
    }))
    .filter(({ body }) => body.alerts[0].labels.alertname === 'AvalancheChainStalled' && body.alerts[0].labels.chain === 'C')
    .map(({ body, key }) => ({ status: body.status, alert: body.alerts[0], key }));
}

/** The alert with these labels as the engine saved it last in `<state_dir>/alerts.json`. */
function savedAlert(stateDir: string, labels: Readonly<Record<string, string>>): { state: string } | undefined {
  const saved = JSON.parse(readFileSync(join(stateDir, 'alerts.json'), 'utf8')) as {
    alerts: Array<{ labels: Record<string, string>; state: string }>;
  };
  return saved.alerts.find((alert) => Object.entries(labels).every(([key, value]) => alert.labels[key] === value));
}

describe('kill -9 and restart while a chain stays stalled', () => {
  it('neither resolves nor re-announces the restored alert, and resolves it once when the chain resumes', async () => {
    const { sim, hook, stateDir, configFile } = await daemons.setup(
      `AvalancheChainStalled: { threshold: ${THRESHOLD_SECONDS}s, behind_threshold: ${THRESHOLD_SECONDS}s, for: 0s }`,
      'AvalancheChainStalled',
      ['chain_progress', 'node_info'],
    );

    sim.apply({ chain_stall: 'C' });
    const first = await daemons.start(configFile);
    await until(() => chainC(hook.requests).length === 1);
    const [firing] = chainC(hook.requests);
    expect(firing.status).toBe('firing');
    await daemons.killHard(first.child);

    // The restored alert is held for threshold + for while the new process relearns the last progress;
    // the wait runs well past that hold, so the rule itself must find the chain stalled again.
    const second = await daemons.start(configFile);
    const metrics = await eventually(
      () => scrape(second.url).catch(() => []),
      (samples) => {
        const lastProgress = valueOf(samples, 'avaxmon_chain_last_progress_timestamp_seconds', { target: 'node-a', chain: 'C' });
        return lastProgress !== undefined && Date.now() / 1000 - lastProgress > THRESHOLD_SECONDS + 3;
      },
      60_000,
    );
    expect(
      valueOf(metrics, 'avaxmon_alerts', { rule: 'AvalancheChainStalled', severity: 'critical', state: 'firing' }),
    ).toBeGreaterThanOrEqual(1);
    await settled(second.url, { collector: 'chain_progress' });
    expect(chainC(hook.requests).map((entry) => entry.status)).toEqual(['firing']);
    expect(savedAlert(stateDir, firing.alert.labels)?.state).toBe('firing');

    sim.apply({ chain_resume: 'C' });
    await until(() => chainC(hook.requests).length === 2, 60_000);
    await settled(second.url, { collector: 'chain_progress' });
    const notifications = chainC(hook.requests);
    expect(notifications.map((entry) => entry.status)).toEqual(['firing', 'resolved']);
    const resolved = notifications[1];
    expect(resolved.alert.fingerprint).toBe(firing.alert.fingerprint);
    expect(resolved.alert.startsAt).toBe(firing.alert.startsAt);
    expect(resolved.key).not.toBe(firing.key);
    expect(savedAlert(stateDir, firing.alert.labels)).toBeUndefined();
  }, 180_000);
});
