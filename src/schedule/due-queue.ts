/**
 * Items ordered by the time they are due, earliest first: a binary heap in two parallel arrays (no
 * object per entry), so a scheduler of thousands of jobs needs one timer instead of one per job.
 */
export class DueQueue<T> {
  private readonly times: number[] = [];
  private readonly items: T[] = [];

  get size(): number {
    return this.times.length;
  }

  /** When the earliest item is due; undefined when empty. */
  nextDueMs(): number | undefined {
    return this.times[0];
  }

  push(dueMs: number, item: T): void {
    let index = this.times.length;
    this.times.push(dueMs);
    this.items.push(item);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.times[parent] <= dueMs) break;
      this.move(parent, index);
      index = parent;
    }
    this.place(index, dueMs, item);
  }

  /** Takes the earliest item, with its due time. */
  pop(): { dueMs: number; item: T } | undefined {
    if (this.times.length === 0) return undefined;
    const earliest = { dueMs: this.times[0], item: this.items[0] };
    const lastTime = this.times.pop()!;
    const lastItem = this.items.pop()!;
    if (this.times.length > 0) this.siftDown(lastTime, lastItem);
    return earliest;
  }

  clear(): void {
    this.times.length = 0;
    this.items.length = 0;
  }

  private siftDown(dueMs: number, item: T): void {
    let index = 0;
    const size = this.times.length;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      if (child + 1 < size && this.times[child + 1] < this.times[child]) child++;
      if (this.times[child] >= dueMs) break;
      this.move(child, index);
      index = child;
    }
    this.place(index, dueMs, item);
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from];
    this.items[to] = this.items[from];
  }

  private place(index: number, dueMs: number, item: T): void {
    this.times[index] = dueMs;
    this.items[index] = item;
  }
}
