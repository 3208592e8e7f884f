import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Silences } from '../../src/alerts/dispatch/silence/silences.js';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { startSimulator } from '../../src/simulator/server.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';
import { nodeUnhealthyAlertsYaml } from './node-unhealthy-alerts.js';
import { until } from '../helpers/until.js';
import { startRecorder, statuses, type Recorder } from './recorder.js';
import { silentLog } from './harness.js';

const AMTOOL = '/usr/bin/amtool';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Runs amtool without blocking: the daemon it talks to runs in this process. */
function amtool(url: string, ...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(AMTOOL, [`--alertmanager.url=${url}`, ...args], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr });
    });
  });
}

async function silencedStack(
  stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-silences-')),
): Promise<{ stack: Stack; hook: Recorder; stateDir: string }> {
  const hook = await startRecorder();
  const stack = await startStack({
    extraYaml: nodeUnhealthyAlertsYaml(stateDir, hook.url),
  });
  cleanups.push(async () => {
    await stack.close();
    await hook.close();
  });
  return { stack, hook, stateDir };
}

describe('silences through the Alertmanager API v2, with the real amtool', () => {
  it('amtool silence add mutes a target, query lists it, expire lifts it; the silence survives a restart and shows on the status page', async () => {
    if (!requireTool(AMTOOL, 'prometheus-alertmanager')) return;
    const { stack, hook, stateDir } = await silencedStack();
    const added = await amtool(stack.url, 'silence', 'add', 'target=node-a', '--duration=1h', '--comment=planned restart', '--author=ops');
    expect(added.status, added.stderr).toBe(0);
    const id = added.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    stack.sim.apply({ fail_check: 'router' });
    await until(async () => {
      const alerts = (await (await fetch(`${stack.url}/api/v2/alerts`)).json()) as Array<{
        labels: Record<string, string>;
        status: { state: string; silencedBy: string[] };
      }>;
      return alerts.some(
        (alert) =>
          alert.labels.alertname === 'AvalancheNodeUnhealthy' && alert.status.state === 'suppressed' && alert.status.silencedBy[0] === id,
      );
    });
    // A silenced alert queues nothing: nothing can reach the receiver later.
    expect(stack.daemon.alerting!.outbox.depth).toBe(0);
    expect(hook.requests).toHaveLength(0);
    const page = await (await fetch(stack.url)).text();
    expect(page).toContain(id);
    expect(page).toContain('target=&#34;node-a&#34;');
    expect(page).toContain(`silenced by ${id}`);

    const queried = await amtool(stack.url, 'silence', 'query', '-o', 'json', 'target=node-a');
    expect(queried.status, queried.stderr).toBe(0);
    expect(
      (JSON.parse(queried.stdout) as Array<{ id: string; comment: string; createdBy: string }>).map(
        ({ id: silenceId, comment, createdBy }) => ({ silenceId, comment, createdBy }),
      ),
    ).toEqual([{ silenceId: id, comment: 'planned restart', createdBy: 'ops' }]);
    const alertQuery = await amtool(stack.url, 'alert', 'query', '--silenced', '-o', 'json');
    expect(alertQuery.status, alertQuery.stderr).toBe(0);
    expect(alertQuery.stdout).toContain('AvalancheNodeUnhealthy');
    // -r: only the alerts routed to a receiver the regex matches whole.
    for (const [receiver, listed] of [
      ['hoo.', true],
      ['ho', false],
    ] as const) {
      const routed = await amtool(stack.url, 'alert', 'query', '--silenced', '-o', 'json', '-r', receiver);
      expect(routed.status, routed.stderr).toBe(0);
      expect(routed.stdout.includes('AvalancheNodeUnhealthy'), receiver).toBe(listed);
    }

    // Persisted in state_dir: a new process would load it.
    await stack.daemon.alerting!.silences.flush();
    expect(new Silences(stateDir, silentLog).get(id)?.state).toBe('active');

    const expired = await amtool(stack.url, 'silence', 'expire', id);
    expect(expired.status, expired.stderr).toBe(0);
    // Sent at the next evaluation after a collection (every 1 s), which a loaded machine delays: not the recorder's 10 s default.
    await hook.waitFor(1, 60_000);
    expect(statuses(hook.requests)).toEqual(['firing:AvalancheNodeUnhealthy']);
    await stack.daemon.alerting!.silences.flush();
    expect(new Silences(stateDir, silentLog).get(id)?.state).toBe('expired');
  }, 180_000);

  it('rejects a bad silence with 400 naming the field', async () => {
    const { stack } = await silencedStack();
    const now = new Date().toISOString();
    const response = await fetch(`${stack.url}/api/v2/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        matchers: [{ name: 'target', value: '.*', isRegex: true }],
        startsAt: now,
        endsAt: new Date(Date.now() + 60_000).toISOString(),
        createdBy: 'a',
        comment: 'b',
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toBe('matchers: at least one matcher must not match the empty string');
  });

  it('judges "matches every alert" on the configured targets: sparing a target nobody has still needs allow_match_all, and is flagged', async () => {
    const { stack } = await silencedStack();
    const post = (query: string, spared: string) =>
      fetch(`${stack.url}/api/v2/silences${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          matchers: [
            { name: 'alertname', value: '.+', isRegex: true },
            { name: 'target', value: spared, isRegex: false, isEqual: false },
          ],
          startsAt: new Date().toISOString(),
          endsAt: new Date(Date.now() + 60_000).toISOString(),
          createdBy: 'a',
          comment: 'b',
        }),
      });
    const refused = await post('', 'any-target-0f7c2a');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toContain('would match every alert');
    // Sparing the one configured target leaves its alerts unmuted.
    expect((await post('', 'node-a')).status).toBe(200);
    expect((await post('?allow_match_all=true', 'any-target-0f7c2a')).status).toBe(200);
    const metrics = await (await fetch(`${stack.url}/metrics`)).text();
    expect(metrics).toMatch(/^avaxmon_silences_matching_every_alert 1$/m);
    expect(await (await fetch(stack.url)).text()).toContain('matches every alert');
  });

  it('expires a silence on time', () => {
    const silences = new Silences(mkdtempSync(join(tmpdir(), 'avaxmon-silences-')), silentLog);
    const start = Date.parse('2026-01-01T00:00:00Z');
    const id = silences.upsert(
      {
        matchers: [{ name: 'target', value: 'validator-1', isRegex: false }],
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + 3_600_000).toISOString(),
        createdBy: 'ops',
        comment: 'restart',
      },
      start,
    );
    expect(silences.silencing({ target: 'validator-1', alertname: 'X' }, start + 60_000)).toEqual([id]);
    expect(silences.silencing({ target: 'validator-2', alertname: 'X' }, start + 60_000)).toEqual([]);
    expect(silences.silencing({ target: 'validator-1', alertname: 'X' }, start + 3_600_000)).toEqual([]);
    expect(silences.get(id, start + 3_600_000)?.state).toBe('expired');
  });

  it('is protected by the web config’s basic auth like every endpoint', async () => {
    if (!requireTool(AMTOOL, 'prometheus-alertmanager')) return;
    const sim = await startSimulator();
    const config = parseConfig(`targets: [{ name: node-a, url: "${sim.url}" }]
alerts:
  state_dir: ${mkdtempSync(join(tmpdir(), 'avaxmon-silences-auth-'))}
`);
    const daemon = new Daemon({
      config,
      logger: createLogger('error', 'json'),
      web: { basicAuthUsers: { ops: bcrypt.hashSync('s3cret', 4) } },
    });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    await daemon.open();
    cleanups.push(async () => {
      await daemon.app.close();
      await daemon.stop();
      await sim.close();
    });
    const url = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}`;
    expect((await fetch(`${url}/api/v2/silences`)).status).toBe(401);
    expect((await fetch(`${url}/api/v2/alerts`)).status).toBe(401);
    expect((await amtool(url, 'silence', 'add', 'target=node-a', '--duration=1h', '--comment=x')).status).not.toBe(0);
    const added = await amtool(
      url.replace('http://', 'http://ops:s3cret@'),
      'silence',
      'add',
      'target=node-a',
      '--duration=1h',
      '--comment=x',
    );
    expect(added.status, added.stderr).toBe(0);
  });
});
