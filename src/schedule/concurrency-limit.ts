import { DueQueue } from './due-queue.js';

interface Waiter {
  readonly key?: string;
  /** Its place in the FIFO order of all waiters. */
  readonly seq: number;
  readonly start: () => void;
}

/**
 * Caps how many tasks run at once, overall and per key (an upstream origin). A task waits in FIFO
 * order until both caps leave room; it holds its slots until its promise settles.
 *
 * Waiters are kept so that ending a task costs no scan of the queue: those whose key has room wait in
 * `ready` (oldest first) for the overall cap alone, and those past their key's room wait in their
 * key's own queue, joining `ready` as the key's tasks end. One list scanned from the front at each
 * end was 1.6 % of the daemon's CPU at 2,000 nodes, where thousands of runs wait and many of them on
 * an origin whose four slots are taken.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  private readonly ready = new DueQueue<Waiter>();
  private readonly readyByKey = new Map<string, number>();
  private readonly overflow = new Map<string, Waiter[]>();
  private overflowCount = 0;
  private nextSeq = 0;
  private closed = false;

  constructor(
    private max: number,
    private readonly maxPerKey: number,
  ) {}

  /** Changes the overall cap: a wider one starts waiting tasks now, a narrower one lets running ones finish. */
  setMax(max: number): void {
    this.max = max;
    this.startWaiting();
  }

  run(key: string | undefined, task: () => Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const start = () => {
        this.take(key);
        void task().finally(() => {
          this.give(key);
          resolve();
          this.startWaiting();
        });
      };
      if (this.closed || this.fits(key)) start();
      else this.enqueue({ key, seq: this.nextSeq++, start });
    });
  }

  /** Starts every waiting task now (they see the scheduler stopped and end at once). */
  close(): void {
    this.closed = true;
    const waiters: Waiter[] = [];
    for (let next = this.ready.pop(); next; next = this.ready.pop()) waiters.push(next.item);
    for (const queue of this.overflow.values()) waiters.push(...queue);
    this.overflow.clear();
    this.readyByKey.clear();
    this.overflowCount = 0;
    waiters.sort((a, b) => a.seq - b.seq);
    for (const waiter of waiters) waiter.start();
  }

  get queued(): number {
    return this.ready.size + this.overflowCount;
  }

  private fits(key: string | undefined): boolean {
    return this.running < this.max && (key === undefined || (this.runningByKey.get(key) ?? 0) < this.maxPerKey);
  }

  /** Slots of `key` neither running nor promised to a ready waiter. */
  private keyRoom(key: string): number {
    return this.maxPerKey - (this.runningByKey.get(key) ?? 0) - (this.readyByKey.get(key) ?? 0);
  }

  private enqueue(waiter: Waiter): void {
    const { key } = waiter;
    if (key === undefined || this.keyRoom(key) > 0) {
      this.makeReady(waiter);
      return;
    }
    let queue = this.overflow.get(key);
    if (!queue) this.overflow.set(key, (queue = []));
    queue.push(waiter);
    this.overflowCount += 1;
  }

  private makeReady(waiter: Waiter): void {
    if (waiter.key !== undefined) this.readyByKey.set(waiter.key, (this.readyByKey.get(waiter.key) ?? 0) + 1);
    this.ready.push(waiter.seq, waiter);
  }

  /** Ready waiters hold a slot of their key each, so the oldest one can start whenever one overall is free. */
  private startWaiting(): void {
    while (this.running < this.max && this.ready.size > 0) {
      const waiter = this.ready.pop()!.item;
      if (waiter.key !== undefined) {
        const count = this.readyByKey.get(waiter.key)! - 1;
        if (count === 0) this.readyByKey.delete(waiter.key);
        else this.readyByKey.set(waiter.key, count);
      }
      waiter.start();
    }
  }

  private take(key: string | undefined): void {
    this.running++;
    if (key !== undefined) this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
  }

  private give(key: string | undefined): void {
    this.running--;
    if (key === undefined) return;
    const count = (this.runningByKey.get(key) ?? 1) - 1;
    if (count === 0) this.runningByKey.delete(key);
    else this.runningByKey.set(key, count);
    // The slot it frees goes to the key's oldest waiter past its room.
    const queue = this.overflow.get(key);
    if (!queue || this.keyRoom(key) <= 0) return;
    const waiter = queue.shift()!;
    this.overflowCount -= 1;
    if (queue.length === 0) this.overflow.delete(key);
    this.makeReady(waiter);
  }
}
