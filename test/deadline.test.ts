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

  it('once released, leaves no listener on the parent and never fires', async () => {
    const parent = new AbortController();
    const { signal, release } = deadline(20, parent.signal);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    release();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    await sleep(60);
    expect(signal.aborted).toBe(false);
  });
});
