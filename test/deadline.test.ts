import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { deadline } from '../src/schedule/deadline.js';

describe('deadline', () => {
  it('aborts with a TimeoutError when the time is up', async () => {
    const { signal, release } = deadline(20);
    await sleep(60);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
    release();
  });

  it('aborts with the parent, for the parent’s reason', () => {
    const parent = new AbortController();
    const { signal, release } = deadline(10_000, parent.signal);
    parent.abort(new Error('stopping'));
    expect((signal.reason as Error).message).toBe('stopping');
    release();
  });

  it('is aborted at once under a parent that already is', () => {
    const parent = new AbortController();
    parent.abort(new Error('stopped'));
    const { signal, release } = deadline(10_000, parent.signal);
    expect(signal.aborted).toBe(true);
    release();
  });

  it('once released, never fires, nor aborts with the parent; the parent keeps one listener for all that follow it', async () => {
    const parent = new AbortController();
    const many = Array.from({ length: 50 }, () => deadline(20, parent.signal));
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    const [first, ...others] = many;
    first.release();
    await sleep(60);
    expect(first.signal.aborted).toBe(false);
    expect(others.every(({ signal }) => signal.aborted)).toBe(true);
    parent.abort(new Error('stopping'));
    expect(first.signal.aborted).toBe(false);
    for (const other of others) other.release();
  });

  it('inside a deadline falling due no later, is that deadline: the same signal, nothing more to release', () => {
    const outer = deadline(10_000);
    const inner = deadline(10_000, outer.signal);
    expect(inner.signal).toBe(outer.signal);
    const shorter = deadline(1_000, outer.signal);
    expect(shorter.signal).not.toBe(outer.signal);
    outer.release();
    shorter.release();
  });
});
