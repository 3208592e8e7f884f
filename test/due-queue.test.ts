import { describe, expect, it } from 'vitest';
import { DueQueue } from '../src/schedule/due-queue.js';

describe('DueQueue', () => {
  it('gives items back earliest first, whatever the order they came in', () => {
    const queue = new DueQueue<string>();
    const times = Array.from({ length: 500 }, (_, index) => (index * 7919) % 1000);
    for (const time of times) queue.push(time, `job-${time}`);
    expect(queue.size).toBe(500);
    const popped: number[] = [];
    for (let next = queue.pop(); next; next = queue.pop()) {
      expect(next.item).toBe(`job-${next.dueMs}`);
      popped.push(next.dueMs);
    }
    expect(popped).toEqual([...times].sort((a, b) => a - b));
  });

  it('tells when the earliest item is due, and forgets everything on clear', () => {
    const queue = new DueQueue<number>();
    expect(queue.nextDueMs()).toBeUndefined();
    queue.push(30, 3);
    queue.push(10, 1);
    queue.push(20, 2);
    expect(queue.nextDueMs()).toBe(10);
    expect(queue.pop()).toEqual({ dueMs: 10, item: 1 });
    expect(queue.nextDueMs()).toBe(20);
    queue.clear();
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBeUndefined();
  });
});
