import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../src/schedule/concurrency-limit.js';

/** Tasks that end when told, recording the order they started in. */
function harness(limit: ConcurrencyLimit) {
  const started: string[] = [];
  const enders = new Map<string, () => void>();
  const done: Promise<void>[] = [];
  const add = (name: string, key: string | undefined) =>
    done.push(
      limit.run(key, () => {
        started.push(name);
        return new Promise<void>((resolve) => enders.set(name, resolve));
      }),
    );
  const end = async (name: string) => {
    enders.get(name)!();
    // The task's finally, the limit's start of the next ones.
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  };
  return { started, add, end, done };
}

describe('ConcurrencyLimit', () => {
  it('starts waiters oldest first as both caps leave room, whatever their keys', async () => {
    const limit = new ConcurrencyLimit(2, 1);
    const { started, add, end } = harness(limit);
    add('a1', 'a');
    add('a2', 'a'); // its key is full
    add('b1', 'b');
    add('c1', 'c'); // the overall cap is full
    add('a3', 'a');
    add('d1', undefined);
    expect(started).toEqual(['a1', 'b1']);
    expect(limit.queued).toBe(4);
    await end('b1'); // c1 is older than a2's chance: a's slot is still taken
    expect(started).toEqual(['a1', 'b1', 'c1']);
    await end('a1'); // a2 is now the oldest that fits
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2']);
    await end('c1'); // a3 waits for a2; d1 has no key
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'd1']);
    await end('a2');
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'd1', 'a3']);
    expect(limit.queued).toBe(0);
  });

  it('never runs more than its caps, and runs every task', async () => {
    const limit = new ConcurrencyLimit(3, 2);
    let running = 0;
    let most = 0;
    const perKey = new Map<string, number>();
    let mostPerKey = 0;
    const tasks = Array.from({ length: 60 }, (_, index) => {
      const key = `origin-${index % 4}`;
      return limit.run(key, async () => {
        running++;
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
        most = Math.max(most, running);
        mostPerKey = Math.max(mostPerKey, perKey.get(key)!);
        for (let turn = 0; turn < index % 7; turn++) await Promise.resolve();
        perKey.set(key, perKey.get(key)! - 1);
        running--;
      });
    });
    await Promise.all(tasks);
    expect(most).toBe(3);
    expect(mostPerKey).toBe(2);
  });

  it('starts every waiter at once when closed, oldest first', async () => {
    const limit = new ConcurrencyLimit(1, 1);
    const { started, add } = harness(limit);
    add('a1', 'a');
    add('a2', 'a');
    add('b1', 'b');
    limit.close();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(limit.queued).toBe(0);
  });
});
