import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { CHROMIUM } from '../helpers/real-systems.js';
import { onlyCollectors } from '../helpers/only-collectors.js';
import { captureStream } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';

/**
 * The status page of a 1,000-node fleet with one node down: a summary on top, the down node and its
 * failing collectors with their errors, the 999 healthy nodes folded behind `?state=all`, and
 * `?target=` for any one of them, after one real round: 999 nodes answer from the simulator, one
 * refuses (port 9).
 */
const NODES = 1_000;
const DOWN = 'node-0007';
/** The fleet page's budget: the 1.6 MB of one row per target and collector is what it replaces. */
const MAX_BYTES = 20_000;
const COLLECTORS = ['health', 'uptime', 'upgrades'] as const;

describe('the status page of a 1,000-node fleet', () => {
  const clock = new ManualClock();
  const names = Array.from({ length: NODES }, (_, index) => `node-${String(index).padStart(4, '0')}`);
  let daemon: Daemon;
  let sim: Simulator;

  beforeAll(async () => {
    // 999 nodes answer (one simulator behind them all) and one refuses (port 9): a real round leaves
    // the statuses the page shows, with no hand-made state for later runs to overwrite.
    sim = await startSimulator();
    const url = (name: string) => (name === DOWN ? 'http://127.0.0.1:9' : sim.url);
    // One simulator is one origin for all 999 nodes, where a real fleet has one each: the per-origin
    // cap is lifted to match. The round's cost is the simulator's and the collectors', in this one
    // process: the page needs several collectors a node, not all of them.
    const yaml = `global: { interval: 1m, timeout: 30s, max_concurrent_collections_per_origin: 64 }\ntargets:\n${names
      .map((name) => `  - { name: ${name}, url: "${url(name)}", collectors: ${onlyCollectors(COLLECTORS)} }`)
      .join('\n')}\n`;
    daemon = new Daemon({ config: parseConfig(yaml), logger: createLogger('error', 'json', captureStream([])), clock });
    const started = daemon.start();
    await clock.advance(60_000);
    await started;
  }, 170_000);

  afterAll(async () => {
    await daemon?.stop();
    await sim?.close();
  });

  const get = async (url: string) => {
    const response = await daemon.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it(`stays under ${MAX_BYTES / 1000} kB: a summary, and the one down node first with its collectors' errors`, async () => {
    const page = await get('/');
    expect(Buffer.byteLength(page)).toBeLessThan(MAX_BYTES);
    expect(page).toMatch(/<b>Targets<\/b> <span class="badge ok">999 up<\/span> <span class="badge bad">1 down<\/span>/);
    expect(page).toContain('999 healthy targets folded: <a href="?state=all">show all</a>');
    const targetsTable = page.split('<h2>Targets</h2>')[1].split('<h2>Collectors</h2>')[0];
    expect(targetsTable.match(/<tr>/g)).toHaveLength(2); // the header and the down node
    expect(targetsTable).toContain(`>${DOWN}</a>`);
    const collectorsTable = page.split('<h2>Collectors</h2>')[1];
    const failingRows = collectorsTable.split('<tr>').filter((row) => row.includes('failing'));
    expect(failingRows).toHaveLength(COLLECTORS.length);
    for (const row of failingRows) {
      expect(row).toContain(DOWN);
      expect(row).toMatch(/ECONNREFUSED|cannot be reached|refused/);
    }
    expect(page).not.toContain('node-0003');
  });

  it('shows one healthy node with every collector behind ?target=, and every row behind ?state=all', async () => {
    const one = await get('/?target=node-0003');
    expect(one).toContain('>node-0003</a>');
    expect(one.split('<h2>Collectors</h2>')[1].match(/<td>node-0003<\/td>/g)!.length).toBe(
      [...daemon.collectorStates.values()].filter((state) => state.target === 'node-0003').length,
    );
    const everything = await get('/?state=all');
    const targetsTable = everything.split('<h2>Targets</h2>')[1].split('<h2>Collectors</h2>')[0];
    expect(targetsTable.match(/<tr>/g)).toHaveLength(NODES + 1);
    // Problems first even then.
    expect(targetsTable.indexOf(DOWN)).toBeLessThan(targetsTable.indexOf('node-0000'));
    expect(everything).toContain('more collectors: narrow with');
  });

  it('renders in headless Chromium, the summary in the first screen', async () => {
    if (!requireTool(CHROMIUM, 'chromium')) return;
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}/`;
    const profile = mkdtempSync(join(tmpdir(), 'avaxmon-chromium-fleet-'));
    const screenshot = join(profile, 'fleet.png');
    let browser: BrowserContext | undefined;
    try {
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
        viewport: { width: 1400, height: 900 },
      });
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(url, { waitUntil: 'load' });
      const summary = page.locator('p.summary');
      expect(await summary.textContent()).toMatch(/999 up\s+1 down/);
      const box = await summary.boundingBox();
      expect(box!.y + box!.height).toBeLessThan(900);
      // The whole page fits in a few screens, not 10,000 rows.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(5_000);
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    } finally {
      await browser?.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);
});
