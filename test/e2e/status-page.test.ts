import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { fullConfig } from '../helpers/full-config.js';
import { CHROMIUM, startWebhookReceiver, type WebhookReceiver } from '../helpers/real-systems.js';
import { captureStream, eventually } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

const haveChromium = requireTool(CHROMIUM, 'chromium');
/**
 * The README's screenshot is refreshed with `UPDATE_SCREENSHOTS=1 npx vitest run test/e2e/status-page.test.ts`;
 * other runs write it to a scratch file, so a test run leaves the work tree clean.
 */
const SCREENSHOT =
  process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/status-page.png' : join(tmpdir(), `avaxmon-status-page-${process.pid}.png`);

/** Flags for a quiet, self-contained headless Chromium that reaches nothing but loopback. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Text of the rows of the first table after a heading, one string per row, cells tab-separated. */
async function rowsUnder(page: Page, heading: string): Promise<string[]> {
  return page.locator(`xpath=//h2[normalize-space()="${heading}"]/following-sibling::table[1]/tbody/tr`).allInnerTexts();
}

describe.skipIf(!haveChromium)('status page in headless Chromium', () => {
  let sim: Simulator;
  let receiver: WebhookReceiver;
  let daemon: Daemon;
  let url: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ validators: 50 });
    receiver = await startWebhookReceiver();
    daemon = new Daemon({
      config: fullConfig(sim.url, { webhookUrl: receiver.url }),
      logger: createLogger('warn', 'json', captureStream([])),
    });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}/`;
    await daemon.start();
    // A firing alert, so the page shows one (the built-in rule's `for` is 0s in fullConfig).
    sim.apply({ fail_check: 'network' });
    profile = mkdtempSync(join(tmpdir(), 'avaxmon-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('requestfailed', (request) => consoleErrors.push(`request failed: ${request.url()}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (SCREENSHOT !== 'docs/status-page.png') rmSync(SCREENSHOT, { force: true });
    await daemon?.app.close();
    await daemon?.stop();
    await receiver?.close();
    await sim?.close();
  });

  it('shows the targets, collectors and the firing alert, logs no console error, and is screenshotted', async () => {
    const alertRows = await eventually(
      async () => {
        await page.goto(url, { waitUntil: 'load' });
        return rowsUnder(page, 'Alerts');
      },
      (rows) => rows.filter((row) => row.startsWith('AvalancheNodeUnhealthy\tcritical\tfiring')).length === 2,
      60_000,
    );
    // node-b is the same simulated node under a second name, so it is unhealthy too.
    for (const target of ['node-a', 'node-b']) {
      expect(alertRows.find((row) => row.startsWith('AvalancheNodeUnhealthy') && row.includes(`target=${target}`))).toMatch(
        /Node node-. is unhealthy/,
      );
    }
    expect(await page.title()).toBe('avaxmon');

    // The role is known once the validators collector has run too.
    const targets = await eventually(
      async () => {
        await page.goto(url, { waitUntil: 'load' });
        return rowsUnder(page, 'Targets');
      },
      (rows) => rows.every((row) => !row.endsWith('\t-')),
      60_000,
    );
    expect(targets.map((row) => row.split('\t')[0])).toEqual(['node-a', 'node-b']);
    // Reachable, yet unhealthy: the health sits beside reachability, with what the node is.
    expect(targets.map((row) => row.split('\t').slice(2))).toEqual([
      ['up', 'unhealthy', 'Primary Network validator'],
      ['up', 'unhealthy', 'Primary Network validator'],
    ]);
    // It keeps up on its own, and fits the window it is read in.
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toMatch(/^\d+$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);

    // A run timed out on a loaded machine shows as failing until the next one: wait for none.
    const collectors = await eventually(
      async () => {
        await page.goto(url, { waitUntil: 'load' });
        return rowsUnder(page, 'Collectors');
      },
      (rows) => !rows.some((row) => row.includes('failing')),
      120_000,
    );
    for (const collector of ['health', 'node_info', 'peers', 'validators', 'l1_validators', 'chain_progress', 'metrics_api', 'data_api']) {
      expect(collectors.some((row) => row.split('\t')[1] === collector)).toBe(true);
    }
    expect(collectors.filter((row) => row.includes('failing'))).toEqual([]);

    const receivers = await rowsUnder(page, 'Receivers');
    expect(receivers[0]).toMatch(/^ops-webhook\twebhook/);
    // The receiver's URL is never shown.
    expect(await page.content()).not.toContain(receiver.url);

    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
