import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { find, scrape, startStack, valueOf, type Stack } from '../helpers/stack.js';

interface ApiAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}

const DAY_S = 86_400;

describe('a validators collector that fails: the page-deciding facts of its last good run stay evaluable', () => {
  let stack: Stack;
  const alerts = async (): Promise<ApiAlert[]> => (await (await fetch(`${stack.url}/api/v2/alerts`)).json()) as ApiAlert[];
  const expiring = async () => (await alerts()).find((alert) => alert.labels.alertname === 'AvalancheStakeExpiring');

  beforeAll(async () => {
    stack = await startStack({
      manualTime: true,
      globalYaml: '{ interval: 10s, timeout: 2s, stale_facts_max_age: 4m }',
      extraYaml: `alerts:\n  state_dir: ${mkdtempSync(join(tmpdir(), 'avaxmon-stale-facts-'))}\n`,
    });
    // The validation ends 1 day and 2 minutes from now, without renewal: an info notice for now.
    stack.sim.apply({ validator_period: { ago_days: 13 - 120 / DAY_S, days: 14 } });
    await stack.time!.eventually(
      async () => (await expiring())?.labels.severity,
      (severity) => severity === 'info',
      30_000,
    );
  });
  afterAll(() => stack.close());

  it('keeps the facts in /metrics with their age, escalates on them, and says the page rests on stale facts', async () => {
    stack.sim.apply({ fault: { match: 'platform.getCurrentValidators', kind: 'rpc_error', message: 'validator set not ready' } });
    const failing = await stack.time!.eventually(
      () => scrape(stack.url),
      (samples) => valueOf(samples, 'avaxmon_collector_success', { collector: 'validators' }) === 0,
      30_000,
    );
    // Still there, and marked as the last good run's, with its age.
    expect(find(failing, 'avaxmon_validator_end_timestamp_seconds').length).toBe(1);
    expect(valueOf(failing, 'avaxmon_collector_facts_age_seconds', { target: 'node-a', collector: 'validators' })).toBeGreaterThan(0);
    // Two minutes on, less than a day is left: the warning comes from the stale facts, and says so.
    const warned = await stack.time!.eventually(
      () => expiring(),
      (alert) => alert?.labels.severity === 'warning',
      4 * 60_000,
    );
    expect(warned!.annotations.stale_facts).toMatch(/^validators failing, facts from its last good run (\d+[dhms] ?)+ ago$/);
    expect(warned!.annotations.description).toContain('(Stale: validators failing');
  }, 120_000);

  it('drops them once they are older than stale_facts_max_age', async () => {
    const dropped = await stack.time!.eventually(
      () => scrape(stack.url),
      (samples) => find(samples, 'avaxmon_validator_end_timestamp_seconds').length === 0,
      6 * 60_000,
    );
    expect(find(dropped, 'avaxmon_collector_facts_age_seconds')).toEqual([]);
  }, 120_000);
});
