import { describe, expect, it } from 'vitest';
import { avalancheUptimeDropping } from '../../src/alerts/evaluation/rules/avalanche-uptime-dropping.js';
import { SampleIndex } from '../../src/alerts/evaluation/sample-index.js';

const labels = { target: 'v', subnet: 'primary', node_id: 'NodeID-v', view: 'network' };
const params = { threshold: 0.05, window: 3600 };

/** A deterministic sequence in [0.8, 1): rises, falls and plateaus. */
function* uptimes(count: number): Generator<number> {
  let seed = 7;
  let value = 0.95;
  for (let step = 0; step < count; step++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const move = (seed % 5) - 2;
    value = Math.min(0.999, Math.max(0.8, value + move * 0.013));
    yield Math.round(value * 1000) / 1000;
  }
}

describe('AvalancheUptimeDropping', () => {
  it("fires exactly when the fall from the window's highest value passes the threshold, as a full history would say", () => {
    const memory = new Map<string, unknown>();
    const seen: Array<{ atMs: number; value: number }> = [];
    let fired = 0;
    let atMs = 0;
    let step = 0;
    let longest = 0;
    for (const value of uptimes(2_000)) {
      // Uneven gaps, a few longer than the window, so points leave it one by one and all at once.
      atMs += ++step % 97 === 0 ? 4_000_000 : 30_000 + (step % 7) * 10_000;
      seen.push({ atMs, value });
      const samples = new SampleIndex([{ name: 'avaxmon_validator_uptime_ratio', labels, value }]);
      const candidates = avalancheUptimeDropping.evaluate({ samples, nowMs: atMs, params, memory });
      const peak = Math.max(...seen.filter((point) => point.atMs >= atMs - 3_600_000).map((point) => point.value));
      expect(candidates.length).toBe(peak - value > params.threshold ? 1 : 0);
      fired += candidates.length;
      longest = Math.max(longest, (memory.values().next().value as unknown[]).length);
    }
    expect(fired).toBeGreaterThan(50);
    // Only the points that can still be the peak are kept, not the window's 60 evaluations.
    expect(longest).toBeLessThan(30);
  });
});
