import { describe, expect, it } from 'vitest';
import { collectorRegistry } from '../../src/collectors/index.js';
import type { Collector } from '../../src/collectors/collector.js';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { startSimulator } from '../../src/simulator/server.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { captureStream } from '../helpers/stack.js';
import { until } from '../helpers/until.js';

describe('/-/ready', () => {
  it('answers 503 until the first collection round completes, then 200; /-/healthy is 200 throughout', async () => {
    const sim = await startSimulator();
    const config = parseConfig(`global: { interval: 5s, timeout: 3s }\ntargets: [{ name: a, url: "${sim.url}" }]`);
    // Until the clock moves, the first runs spread over the round wait: the round cannot be complete.
    const clock = new ManualClock();
    const daemon = new Daemon({ config, logger: createLogger('error', 'json', captureStream([])), clock });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}`;
    try {
      const firstRound = daemon.start();
      const early = await fetch(`${base}/-/ready`);
      expect(early.status).toBe(503);
      expect(await early.text()).toContain('first collection round in progress');
      expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
      // Nine collectors' first runs start within 9 x 40 ms, long before their 5 s deadline.
      await clock.advance(1000);
      await firstRound;
      expect((await fetch(`${base}/-/ready`)).status).toBe(200);
    } finally {
      await daemon.app.close();
      await clock.runUntil(daemon.stop());
      await sim.close();
    }
  });
});

describe('/-/ready when collection stalls', () => {
  it('turns 503 naming the stall while every run ignores its abort, and 200 again once runs end', async () => {
    const sim = await startSimulator();
    let hanging = true;
    const hangingRegistry = new Map(
      [...collectorRegistry].map(([name, factory]) => [name, { ...factory, create: () => hangWhile(factory.create(), () => hanging) }]),
    );
    const config = parseConfig(`global: { interval: 1s, timeout: 500ms }\ntargets: [{ name: a, url: "${sim.url}" }]`);
    const clock = new ManualClock();
    const daemon = new Daemon({
      config,
      logger: createLogger('error', 'json', captureStream([])),
      collectorRegistry: hangingRegistry,
      clock,
    });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}`;
    try {
      // Four runs at a time per origin, each held 3 s (1 s deadline + 2 s grace) before it is
      // abandoned: the first round of nine ends after 9 s, when no run has ended for over 5 s.
      await clock.runUntil(daemon.start());
      const ready = await fetch(`${base}/-/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toContain('collection has stalled');
      const page = await (await fetch(`${base}/`)).text();
      expect(page).toContain('not ready: collection has stalled');
      // The missed cycles are visible, not silent: counted on /metrics and in the status page's row.
      const metrics = await (await fetch(`${base}/metrics`)).text();
      const counted = (name: string) => Number(new RegExp(`^${name}\\{target="a",collector="health"\\} (\\S+)$`, 'm').exec(metrics)?.[1]);
      expect(counted('avaxmon_collector_skipped_runs_total')).toBeGreaterThan(0);
      expect(counted('avaxmon_collector_abandoned_runs_total')).toBeGreaterThan(0);
      const healthRow = /<tr><td>a<\/td><td>health<\/td>(.*?)<\/tr>/.exec(page)?.[1] ?? '';
      expect(healthRow).toContain('run abandoned');
      hanging = false;
      // Within 3 s a hung run is abandoned and a fresh one, which ends, takes its slot.
      await clock.advance(3000);
      await until(async () => (await fetch(`${base}/-/ready`)).status === 200);
    } finally {
      await daemon.app.close();
      await clock.runUntil(daemon.stop()); // the stop grace and the abandon grace pass on the manual clock
      await sim.close();
    }
  }, 30_000);
});

/** A collector that, while `isHanging()`, never settles and ignores its abort: the bug the stall guards against. */
function hangWhile(collector: Collector, isHanging: () => boolean): Collector {
  return { ...collector, collect: (ctx) => (isHanging() ? new Promise(() => {}) : collector.collect(ctx)) };
}
