import { describe, expect, it } from 'vitest';
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
