import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_WRITE_SPACING_MS, OrderedStateWrites } from '../../src/alerts/state/state-writes.js';
import { WriteFailures } from '../../src/alerts/state/write-failures.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { silentLog } from './harness.js';

/** Two files as the alert plane has them, their contents set by the test, and how often each was taken. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-ordered-writes-'));
  const clock = new ManualClock();
  const failures = new WriteFailures(silentLog);
  const content = { alerts: 'a0', nflog: 'n0' };
  const taken = { alerts: 0, nflog: 0 };
  const file = (name: 'alerts' | 'nflog') => ({
    name,
    path: join(dir, `${name}.json`),
    content: () => {
      taken[name]++;
      return content[name];
    },
  });
  const writes = new OrderedStateWrites([file('alerts'), file('nflog')], failures, clock);
  const read = (name: string) => readFileSync(join(dir, `${name}.json`), 'utf8');
  const errors = () => failures.errors.samples().reduce((sum, sample) => sum + sample.value, 0);
  return { dir, clock, writes, content, taken, read, errors };
}

/** Until the background write under way (its fsyncs on the thread pool) is done. */
async function backgroundDone(writes: OrderedStateWrites, clock: ManualClock): Promise<void> {
  await clock.advance(BACKGROUND_WRITE_SPACING_MS);
  await (writes as unknown as { background?: Promise<void> }).background;
}

describe('ordered state writes', () => {
  it('coalesces a burst of background changes into one write of the latest content, off the call', async () => {
    const { clock, writes, content, taken, read } = setup();
    for (let change = 1; change <= 100; change++) {
      content.alerts = `a${change}`;
      writes.soon('alerts');
    }
    expect(taken.alerts).toBe(0);
    await backgroundDone(writes, clock);
    expect(taken.alerts).toBe(1);
    expect(read('alerts')).toBe('a100');
  });

  it('starts background writes at most once per spacing, and writes nothing that did not change', async () => {
    const { dir, clock, writes, content, taken } = setup();
    const background = () => (writes as unknown as { background?: Promise<void> }).background;
    content.alerts = 'a1';
    writes.soon('alerts');
    await clock.advance(0);
    await background();
    expect(taken.alerts).toBe(1);
    const inode = statSync(join(dir, 'alerts.json')).ino;

    content.alerts = 'a2';
    writes.soon('alerts');
    await clock.advance(BACKGROUND_WRITE_SPACING_MS / 2);
    // Half a spacing after the last write started: not yet.
    expect(taken.alerts).toBe(1);
    await clock.advance(BACKGROUND_WRITE_SPACING_MS / 2);
    await background();
    expect(taken.alerts).toBe(2);
    expect(statSync(join(dir, 'alerts.json')).ino).not.toBe(inode);

    // Asked again with the same content: taken, compared, not written.
    const written = statSync(join(dir, 'alerts.json')).ino;
    writes.soon('alerts');
    await backgroundDone(writes, clock);
    expect(taken.alerts).toBe(3);
    expect(statSync(join(dir, 'alerts.json')).ino).toBe(written);
  });

  it('writes at once the files before the one asked for: the log is never ahead of the alerts', async () => {
    const { writes, content, read } = setup();
    content.alerts = 'a1';
    writes.soon('alerts');
    content.nflog = 'n1';
    expect(writes.now('nflog')).toBe(true);
    expect([read('alerts'), read('nflog')]).toEqual(['a1', 'n1']);
  });

  it('never lets an older background content replace one written at once meanwhile', async () => {
    const { clock, writes, content, read } = setup();
    let reads = 0;
    // The background write takes 'older'; right after (its file not yet open), 'newer' is written at once.
    Object.defineProperty(content, 'alerts', {
      get: () => {
        if (++reads === 1) queueMicrotask(() => writes.now('alerts'));
        return reads === 1 ? 'older' : 'newer';
      },
    });
    writes.soon('alerts');
    await clock.advance(0);
    await (writes as unknown as { background?: Promise<void> }).background;
    expect(reads).toBe(2);
    expect(read('alerts')).toBe('newer');
  });

  it('writes the alerts a background write has taken before a log written at once meanwhile', async () => {
    const { clock, writes, content, read } = setup();
    let onDisk: string[] = [];
    let reads = 0;
    Object.defineProperty(content, 'alerts', {
      get: () => {
        if (++reads === 1)
          queueMicrotask(() => {
            content.nflog = 'n1';
            writes.now('nflog');
            onDisk = [read('alerts'), read('nflog')];
          });
        return 'a1';
      },
    });
    writes.soon('alerts');
    await clock.advance(0);
    await (writes as unknown as { background?: Promise<void> }).background;
    expect(onDisk).toEqual(['a1', 'n1']);
  });

  it('holds the log back while the alerts cannot be written, retries in the background, and counts each failure', async () => {
    const { dir, clock, writes, content, read, errors } = setup();
    mkdirSync(join(dir, 'alerts.json', 'in-the-way'), { recursive: true });
    content.alerts = 'a1';
    writes.soon('alerts');
    content.nflog = 'n1';
    expect(writes.now('nflog')).toBe(false);
    expect(() => read('nflog')).toThrow(/ENOENT/);
    expect(errors()).toBe(1);
    await backgroundDone(writes, clock);
    expect(errors()).toBe(2);
    expect(() => read('nflog')).toThrow(/ENOENT/);

    rmSync(join(dir, 'alerts.json'), { recursive: true });
    await backgroundDone(writes, clock);
    expect([read('alerts'), read('nflog')]).toEqual(['a1', 'n1']);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes what is pending at once when stopped, without waiting for the spacing', async () => {
    const { writes, content, read } = setup();
    content.alerts = 'a1';
    writes.soon('alerts');
    content.nflog = 'n1';
    writes.soon('nflog');
    await writes.stop();
    expect([read('alerts'), read('nflog')]).toEqual(['a1', 'n1']);
  });
});
