import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { AlertPlane } from '../../src/alerts/alert-plane.js';
import type { CollectorLookup } from '../../src/alerts/evaluation/rule.js';
import { parseConfig } from '../../src/config/load.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { startRecorder, type Recorder } from './recorder.js';

export const silentLog = pino({ level: 'silent' });
export const T0 = Date.parse('2026-01-01T00:00:00Z');
export const sec = (seconds: number) => T0 + seconds * 1000;

export const targetUp = (name: string, up = 1): Sample => ({ name: 'avaxmon_target_up', labels: { target: name }, value: up });
export const health = (value: number, name = 'validator-1'): Sample[] => [
  targetUp(name),
  { name: 'avaxmon_node_healthy', labels: { target: name }, value },
  { name: 'avaxmon_health_check_passing', labels: { target: name, check: 'network' }, value },
];

export interface Harness {
  readonly alerting: AlertPlane;
  readonly hook: Recorder;
  readonly stateDir: string;
  close(): Promise<void>;
}

/**
 * An alert plane with one loopback webhook receiver named `hook`. `alerts` is YAML indented by two
 * spaces: everything under `alerts:` but state_dir, retry and the hook receiver; `receivers` adds receivers
 * (HOOK_URL in them stands for the hook's base URL).
 */
export async function startAlerting(
  alerts: string,
  receivers = '',
  stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-alerts-')),
  collectors?: CollectorLookup,
): Promise<Harness> {
  const hook = await startRecorder();
  const config = parseConfig(`alerts:
  state_dir: ${stateDir}
  retry: { initial_backoff: 50ms, max_backoff: 200ms }
${alerts.includes('group_') ? '' : '  group_wait: 0s\n  group_interval: 0s\n'}${alerts}
  receivers:
    - { name: hook, type: webhook, url: ${hook.url}/hook }
${receivers.replaceAll('HOOK_URL', hook.url)}`).alerts!;
  const alerting = new AlertPlane(config, silentLog, collectors);
  return {
    alerting,
    hook,
    stateDir,
    async close() {
      await alerting.stop(0);
      await hook.close();
    },
  };
}

/** Waits until the outbox is empty: every queued notification reached its receiver or was given up. */
export async function drained(alerting: AlertPlane, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (alerting.outbox.depth > 0) {
    if (Date.now() > deadline) throw new Error(`outbox still holds ${alerting.outbox.depth} notifications`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function webhookAlerts(
  hook: Recorder,
): Array<{ status: string; labels: Record<string, string>; annotations: Record<string, string> }> {
  return hook.requests.flatMap(
    (request) =>
      (request.json as { alerts: Array<{ status: string; labels: Record<string, string>; annotations: Record<string, string> }> }).alerts,
  );
}
