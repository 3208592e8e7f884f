/** A binary min-heap of items by due time: the sender finds what is due without scanning the queue. */
export class DueHeap<T> {
  private readonly items: Array<{ dueMs: number; item: T }> = [];

  get size(): number {
    return this.items.length;
  }

  push(dueMs: number, item: T): void {
    this.items.push({ dueMs, item });
    let index = this.items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.items[parent].dueMs <= dueMs) break;
      [this.items[parent], this.items[index]] = [this.items[index], this.items[parent]];
      index = parent;
    }
  }

  peekDueMs(): number | undefined {
    return this.items[0]?.dueMs;
  }

  /** Removes and returns the earliest item if it is due at `nowMs`. */
  popDue(nowMs: number): T | undefined {
    if (this.items.length === 0 || this.items[0].dueMs > nowMs) return undefined;
    const top = this.items[0].item;
    const last = this.items.pop()!;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.siftDown();
    }
    return top;
  }

  private siftDown(): void {
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < this.items.length && this.items[left].dueMs < this.items[smallest].dueMs) smallest = left;
      if (right < this.items.length && this.items[right].dueMs < this.items[smallest].dueMs) smallest = right;
      if (smallest === index) return;
      [this.items[smallest], this.items[index]] = [this.items[index], this.items[smallest]];
      index = smallest;
    }
  }
}
