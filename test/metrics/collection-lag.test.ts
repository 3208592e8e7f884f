import { afterEach, describe, expect, it } from 'vitest';
import { eventually, scrape, startStack, valueOf, type ParsedSample, type Stack } from '../helpers/stack.js';
import { CollectionLag } from '../../src/metrics/collection-lag.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const ALERTS_YAML = 'alerts:\n  rules:\n    AvaxmonCollectionLagging: { for: 0s }';

async function firingRules(url: string): Promise<string[]> {
  const alerts = (await (await fetch(`${url}/api/v2/alerts`)).json()) as Array<{ labels: Record<string, string> }>;
  return alerts.map((alert) => alert.labels.alertname);
}

describe('collection that cannot keep up', () => {
  it('says so: lagging collectors, late runs, AvaxmonCollectionLagging and the status page, while every run succeeds', async () => {
    // One run at a time against a node answering each request after 250 ms: a round of every
    // collector takes seconds, so each collector's data ages past two of its 1 s intervals.
    stack = await startStack({ globalYaml: '{ interval: 1s, timeout: 900ms, max_concurrent_collections: 1 }', extraYaml: ALERTS_YAML });
    stack.sim.apply({ fault: { match: '*', kind: 'slow', delay: '250ms' } });
    const behind = (current: ParsedSample[]) =>
      current
        .filter((sample) => sample.name === 'avaxmon_collection_late_runs_total' || sample.name === 'avaxmon_collector_skipped_runs_total')
        .reduce((sum, sample) => sum + sample.value, 0);
    const samples = await eventually(
      () => scrape(stack!.url),
      (current) => (valueOf(current, 'avaxmon_collectors_lagging') ?? 0) > 0 && behind(current) > 0,
      15_000,
    );
    expect(valueOf(samples, 'avaxmon_collector_success', { collector: 'health' })).toBe(1);
    // The count is evaluated at the fleet tick (every 5 s), a tick that comes late on a loaded machine.
    await eventually(
      () => firingRules(stack!.url),
      (rules) => rules.includes('AvaxmonCollectionLagging'),
      30_000,
    );
    expect(await (await fetch(`${stack.url}/`)).text()).toMatch(/collection behind: \d+ collectors/);
  }, 60_000);

  it('says nothing while collection keeps up', async () => {
    stack = await startStack({ extraYaml: ALERTS_YAML });
    // Several intervals of ordinary collection, every one evaluated.
    const healthSuccess = (current: ParsedSample[]) =>
      valueOf(current, 'avaxmon_collector_last_success_timestamp_seconds', { collector: 'health' });
    const first = healthSuccess(await scrape(stack.url))!;
    const samples = await eventually(
      () => scrape(stack!.url),
      (current) => (healthSuccess(current) ?? 0) >= first + 4,
      15_000,
    );
    expect(valueOf(samples, 'avaxmon_collectors_lagging')).toBe(0);
    expect(await firingRules(stack.url)).not.toContain('AvaxmonCollectionLagging');
    expect(await (await fetch(`${stack.url}/`)).text()).not.toContain('collection behind');
  }, 40_000);
});

describe('CollectionLag.behind', () => {
  it('holds while the latest run started more than a second late, and clears with a run on time', () => {
    const lag = new CollectionLag();
    expect(lag.behind).toBe(false);
    lag.recordStart('peers', 4_000);
    expect(lag.behind).toBe(true);
    lag.recordStart('health', 20);
    expect(lag.behind).toBe(false);
  });
});
