import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { scrape, startStack, type ParsedSample, type Stack } from '../helpers/stack.js';

const MINIMAL = readFileSync(new URL('../../config.minimal.yaml', import.meta.url), 'utf8');
/** Issue 25: the watched node is asked at most this often with the starter config. */
const BUDGET_PER_MINUTE = 40;
const WINDOW_MINUTES = 10;

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

function requestsByMethod(samples: readonly ParsedSample[]): Map<string, number> {
  const byMethod = new Map<string, number>();
  for (const sample of samples) {
    if (sample.name !== 'avaxmon_rpc_requests_total' || sample.labels.target !== 'node-a') continue;
    byMethod.set(sample.labels.method, (byMethod.get(sample.labels.method) ?? 0) + sample.value);
  }
  return byMethod;
}

describe('the default schedule spares the node', () => {
  it(`asks a node watched with config.minimal.yaml at most ${BUDGET_PER_MINUTE} times a minute`, async () => {
    // The starter config sets no interval: every collector runs at its own default.
    const minimal = parseConfig(MINIMAL, { env: {} });
    expect(minimal.global.interval).toBeUndefined();
    expect(minimal.targets[0].collectors).toEqual({});

    stack = await startStack({ manualTime: true, globalYaml: '{}' });
    const before = requestsByMethod(await scrape(stack.url));
    await stack.time!.advance(WINDOW_MINUTES * 60_000);
    const after = requestsByMethod(await scrape(stack.url));
    const perMinute = [...after].map(([method, count]) => [method, (count - (before.get(method) ?? 0)) / WINDOW_MINUTES] as const);
    const total = perMinute.reduce((sum, [, rate]) => sum + rate, 0);
    // Health and chain heights every 15 s: what pages fast is still asked often.
    expect(Object.fromEntries(perMinute)['GET /ext/health']).toBe(4);
    expect(total).toBeGreaterThan(10);
    expect(total, JSON.stringify(Object.fromEntries(perMinute))).toBeLessThanOrEqual(BUDGET_PER_MINUTE);
  }, 120_000);
});
