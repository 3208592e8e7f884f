import { describe, expect, it } from 'vitest';
import { collectorRegistry } from '../../src/collectors/index.js';
import type { Collector, CollectorFactory } from '../../src/collectors/collector.js';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon.js';
import { createLogger } from '../../src/log.js';
import { startSimulator } from '../../src/simulator/server.js';
import { captureStream } from '../helpers/stack.js';

describe('/-/ready', () => {
  it('answers 503 until the first collection round completes, then 200; /-/healthy is 200 throughout', async () => {
    const sim = await startSimulator();
    sim.apply({ fault: { match: 'info.peers', kind: 'slow', delay: '1500ms' } });
    const config = parseConfig(`global: { interval: 5s, timeout: 3s }\ntargets: [{ name: a, url: "${sim.url}" }]`);
    const daemon = new Daemon({ config, logger: createLogger('error', 'json', captureStream([])) });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}`;
    try {
      const firstRound = daemon.start();
      const early = await fetch(`${base}/-/ready`);
      expect(early.status).toBe(503);
      expect(await early.text()).toContain('first collection round in progress');
      expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
      await firstRound;
      expect((await fetch(`${base}/-/ready`)).status).toBe(200);
    } finally {
      await daemon.app.close();
      await daemon.stop();
      await sim.close();
    }
  });
});

describe('/-/ready when collection stalls', () => {
  it('turns 503 naming the stall while every run ignores its abort, and 200 again once runs end', async () => {
    const sim = await startSimulator();
    const registry = collectorRegistry as Map<string, CollectorFactory>;
    const originals = new Map(registry);
    let hanging = true;
    for (const [name, factory] of originals) {
      registry.set(name, { ...factory, create: () => hangWhile(factory.create(), () => hanging) });
    }
    const config = parseConfig(`global: { interval: 1s, timeout: 500ms }\ntargets: [{ name: a, url: "${sim.url}" }]`);
    const daemon = new Daemon({ config, logger: createLogger('error', 'json', captureStream([])) });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}`;
    try {
      await daemon.start(); // the first round ends when its runs are abandoned
      await waitFor(async () => (await fetch(`${base}/-/ready`)).status === 503);
      expect(await (await fetch(`${base}/-/ready`)).text()).toContain('collection has stalled');
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
      await waitFor(async () => (await fetch(`${base}/-/ready`)).status === 200);
    } finally {
      for (const [name, factory] of originals) registry.set(name, factory);
      await daemon.app.close();
      await daemon.stop();
      await sim.close();
    }
  }, 30_000);
});

/** A collector that, while `isHanging()`, never settles and ignores its abort: the bug the stall guards against. */
function hangWhile(collector: Collector, isHanging: () => boolean): Collector {
  return { ...collector, collect: (ctx) => (isHanging() ? new Promise(() => {}) : collector.collect(ctx)) };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
