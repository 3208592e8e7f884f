import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { fullConfig } from '../helpers/full-config.js';
import { CHROMIUM, startWebhookReceiver, type WebhookReceiver } from '../helpers/real-systems.js';
import { captureStream, eventually } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

const haveChromium = requireTool(CHROMIUM, 'chromium');
/**
 * The README's screenshot, of the fleet below, is refreshed with
 * `UPDATE_SCREENSHOTS=1 npx vitest run test/e2e/status-page.test.ts`; other runs write it to a
 * scratch file, so a test run leaves the work tree clean.
 */
const README_SCREENSHOT = 'docs/status-page.png';
const scratchScreenshot = (name: string) => join(tmpdir(), `avaxmon-status-page-${name}-${process.pid}.png`);

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

/** A 1,400 × 900 window in a fresh profile, as a reader's. */
async function openChromium(profile: string): Promise<{ browser: BrowserContext; page: Page }> {
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  return { browser, page: browser.pages()[0] ?? (await browser.newPage()) };
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
    ({ browser, page } = await openChromium(profile));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('requestfailed', (request) => consoleErrors.push(`request failed: ${request.url()}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    rmSync(scratchScreenshot('full'), { force: true });
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

    await page.screenshot({ path: scratchScreenshot('full'), fullPage: true });
    expect(statSync(scratchScreenshot('full')).size).toBeGreaterThan(10_000);
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});

/**
 * The README's picture: a fleet of 30 nodes past the page's fold (25), one down and one unhealthy
 * with a firing alert. The page shows the summary, the two problems first with the down node's
 * collector errors, the alert, and the 28 healthy nodes folded.
 */
describe.skipIf(!haveChromium)('the status page of a small fleet in headless Chromium (the README screenshot)', () => {
  const DOWN = 'validator-07';
  const UNHEALTHY = 'validator-12';
  const names = Array.from({ length: 30 }, (_, index) => `validator-${String(index + 1).padStart(2, '0')}`);
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-fleet-state-'));
  const profile = mkdtempSync(join(tmpdir(), 'avaxmon-chromium-fleet-'));
  const screenshot = process.env.UPDATE_SCREENSHOTS === '1' ? README_SCREENSHOT : scratchScreenshot('fleet');
  let healthy: Simulator;
  let sick: Simulator;
  let receiver: WebhookReceiver;
  let daemon: Daemon;
  let browser: BrowserContext | undefined;

  beforeAll(async () => {
    healthy = await startSimulator();
    sick = await startSimulator();
    sick.apply({ fail_check: { check: 'network', error: 'not connected to enough stake: connected to 71%; required at least 80%' } });
    receiver = await startWebhookReceiver();
    const url = (name: string) => (name === DOWN ? 'http://127.0.0.1:9' : name === UNHEALTHY ? sick.url : healthy.url);
    daemon = new Daemon({
      config: parseConfig(`global: { interval: 10s, timeout: 5s }
targets:
${names.map((name) => `  - { name: ${name}, url: "${url(name)}" }`).join('\n')}
alerts:
  state_dir: ${stateDir}
  group_wait: 0s
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
  receivers:
    - { name: ops-webhook, type: webhook, url: ${receiver.url} }
`),
      logger: createLogger('error', 'json', captureStream([])),
    });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    await daemon.start();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(scratchScreenshot('fleet'), { force: true });
    await daemon?.app.close();
    await daemon?.stop();
    await receiver?.close();
    await healthy?.close();
    await sick?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('shows the summary, the down and the unhealthy node first, the alert, and folds the 28 healthy ones', async () => {
    const opened = await openChromium(profile);
    browser = opened.browser;
    const { page } = opened;
    const url = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}/`;
    // Waits out a healthy node's run that timed out on a loaded machine: its next run clears it.
    const shown = await eventually(
      async () => {
        await page.goto(url, { waitUntil: 'load' });
        return {
          summary: (await page.locator('p.summary').textContent()) ?? '',
          alerts: await rowsUnder(page, 'Alerts'),
          targets: await rowsUnder(page, 'Targets'),
          collectors: await rowsUnder(page, 'Collectors'),
        };
      },
      ({ summary, alerts, collectors }) =>
        /29 up\s+1 down\s+0 unknown/.test(summary) &&
        alerts.some((row) => row.startsWith('AvalancheNodeUnhealthy\tcritical\tfiring')) &&
        collectors.length > 0 &&
        collectors.every((row) => row.startsWith(`${DOWN}\t`)),
      120_000,
    );
    expect(await page.locator('p.filters').textContent()).toContain('28 healthy targets folded');
    const reachableAndHealth = shown.targets.map((row) => {
      const [name, , reachable, health] = row.split('\t');
      return [name, reachable, health];
    });
    expect(reachableAndHealth).toEqual([
      [DOWN, 'down', 'unknown'],
      [UNHEALTHY, 'up', 'unhealthy'],
    ]);
    for (const row of shown.collectors) expect(row).toMatch(/\tfailing\t.*(ECONNREFUSED|refused|cannot be reached)/);
    // Fits the window it is read in, and no badge or name is broken across lines.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);
    const badgeHeights = await page.locator('.badge').evaluateAll((badges) => badges.map((badge) => badge.getClientRects().length));
    expect(badgeHeights.every((lines) => lines === 1)).toBe(true);

    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
  }, 180_000);
});
