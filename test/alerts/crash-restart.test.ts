import { readdirSync } from 'node:fs';
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
