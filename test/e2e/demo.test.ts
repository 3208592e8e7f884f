import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { eventually, find, parseExposition, valueOf } from '../helpers/stack.js';

const DEMO = new URL('../../dist/demo.js', import.meta.url).pathname;
/**
 * The demo played 2.5 times faster: its 60 s story in 24 s, collected every 2 s with the demo's own
 * 2 s timeout (a shorter one times out on a loaded machine).
 */
const SPEED = 2.5;

describe('npm run demo', () => {
  it('prints the /metrics URL, shows every collector succeeding, and its values move', async () => {
    const port = await freePort();
    const demo = spawn('node', [DEMO], {
      env: { ...process.env, AVAXMON_DEMO_PORT: String(port), AVAXMON_DEMO_SPEED: String(SPEED) },
    });
    let stdout = '';
    demo.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await eventually(
        async () => stdout,
        (text) => text.includes(`metrics:    http://127.0.0.1:${port}/metrics`),
        60_000,
      );
      const scrape = async () => parseExposition(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
      // Every collector succeeds (on an idle machine within the first 2 s round; a loaded machine may
      // time a first run out, and the next one succeeds).
      const first = await eventually(
        scrape,
        (s) => find(s, 'avaxmon_collector_success').filter((sample) => sample.value === 1).length >= 11,
        120_000,
      );
      expect(find(first, 'avaxmon_collector_success').filter((sample) => sample.value !== 1)).toEqual([]);
      for (const name of [
        'avaxmon_node_healthy',
        'avaxmon_node_peers',
        'avaxmon_node_uptime_weighted_average_ratio',
        'avaxmon_network_upgrade_scheduled',
        'avaxmon_node_info',
      ]) {
        expect(find(first, name).length, name).toBeGreaterThan(0);
      }
      // The scenario fails the network check at 8s and drops the peers to 12 at 16s (3.2 s and 6.4 s here).
      await eventually(scrape, (s) => valueOf(s, 'avaxmon_node_healthy') === 0, 60_000);
      await eventually(scrape, (s) => valueOf(s, 'avaxmon_node_peers') === 12, 60_000);
      // The alerts: section and the webhook sink: the flip fires, shows on the status page, and resolves.
      await eventually(
        async () => stdout,
        (text) => /webhook: +firing AvalancheNodeUnhealthy/.test(text),
        60_000,
      );
      // The flip lasts about 16 s of every 60 s loop (6.4 s of 24 s here).
      await eventually(
        async () => (await fetch(`http://127.0.0.1:${port}/`)).text(),
        (html) => html.includes('<td>AvalancheNodeUnhealthy</td>'),
        70_000,
      );
      await eventually(
        async () => stdout,
        (text) => /webhook: +resolved AvalancheNodeUnhealthy/.test(text),
        60_000,
      );
    } finally {
      demo.kill('SIGTERM');
    }
  }, 180_000);
});
