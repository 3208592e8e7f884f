import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settled, until, useDaemonProcesses } from './daemon-processes.js';
import { onePerIdempotencyKey, statuses } from './recorder.js';

const daemons = useDaemonProcesses();
const setup = () => daemons.setupNodeUnhealthyOnly();
const startDaemon = async (configFile: string) => (await daemons.start(configFile)).child;
const killHard = daemons.killHard;

function queued(stateDir: string): number {
  try {
    return readdirSync(join(stateDir, 'outbox')).filter((name) => name.endsWith('.json')).length;
  } catch {
    return 0;
  }
}

describe('kill -9 and restart', () => {
  it('loses nothing that was queued, and sends no firing that stopped being true while it waited', async () => {
    const { sim, hook, stateDir, configFile } = await setup();
    hook.respond = () => ({ status: 503, headers: { 'retry-after': '60' } });
    const first = await startDaemon(configFile);
    sim.apply({ fail_check: 'network' });
    await until(() => queued(stateDir) === 1);
    sim.apply({ recover_check: 'network' });
    await until(() => queued(stateDir) === 2);
    await killHard(first);
    expect(hook.requests).toHaveLength(0);

    hook.respond = () => ({ status: 200 });
    const second = await daemons.start(configFile);
    // A generous wait: a restart on a machine running the other test files in parallel is slow.
    await until(() => hook.requests.length === 1, 60_000);
    await settled(second.url);
    // The alert resolved before the receiver took its firing: it learns of the incident as resolved,
    // and is never paged by a firing that is no longer true.
    expect(statuses(hook.requests)).toEqual(['resolved:AvalancheNodeUnhealthy']);
    expect(queued(stateDir)).toBe(0);
  });

  it('does not re-announce a firing alert, and sends the resolve that fell due while it was down', async () => {
    const { sim, hook, stateDir, configFile } = await setup();
    const first = await startDaemon(configFile);
    sim.apply({ fail_check: 'network' });
    // Delivered and recorded as such: a kill before its outbox file goes would rightly send it again.
    await until(() => hook.requests.length === 1 && queued(stateDir) === 0);
    await killHard(first);

    const second = await daemons.start(configFile);
    await settled(second.url);
    expect(statuses(onePerIdempotencyKey(hook.requests))).toEqual(['firing:AvalancheNodeUnhealthy']);
    await killHard(second.child);

    sim.apply({ recover_check: 'network' });
    const third = await daemons.start(configFile);
    await until(() => onePerIdempotencyKey(hook.requests).length === 2);
    await settled(third.url);
    expect(statuses(onePerIdempotencyKey(hook.requests))).toEqual(['firing:AvalancheNodeUnhealthy', 'resolved:AvalancheNodeUnhealthy']);
  });
});

/** A webhook receiver that takes requests and never answers them. */
async function hungReceiver(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((request) => {
    requests++;
    request.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('SIGTERM', () => {
  it('waits for no receiver that never answers: exits cleanly, its notification queued for the next start', async () => {
    const { sim, hook, stateDir, configFile } = await setup();
    const hung = await hungReceiver();
    const config = readFileSync(configFile, 'utf8');
    writeFileSync(configFile, config.replace(`${hook.url}/hook`, hung.url));
    try {
      const first = await daemons.start(configFile, 'info');
      sim.apply({ fail_check: 'network' });
      // The firing notification is on its way to a receiver that holds it for its 10 s timeout.
      await until(() => hung.requests() === 1 && queued(stateDir) === 1);
      // 'close', not 'exit': the log is read next, and its last lines can arrive after the exit.
      const exited = new Promise<number | null>((resolve) => first.child.once('close', resolve));
      first.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(first.output()).toContain('"msg":"Stopped cleanly"');
      // Not main.ts's last resort, which exits whatever is left undone.
      expect(first.output()).not.toContain('Stop did not finish in time');
      expect(queued(stateDir)).toBe(1);
    } finally {
      await hung.close();
    }

    writeFileSync(configFile, config);
    const second = await daemons.start(configFile);
    await until(() => hook.requests.length === 1, 60_000);
    await settled(second.url);
    expect(statuses(onePerIdempotencyKey(hook.requests))).toEqual(['firing:AvalancheNodeUnhealthy']);
  });
});
