/**
 * Caps how many tasks run at once, overall and per key (an upstream origin). A task waits in FIFO
 * order until both caps leave room; it holds its slots until its promise settles.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  private readonly waiting: Array<{ key?: string; start: () => void }> = [];
  private closed = false;

  constructor(
    private readonly max: number,
    private readonly maxPerKey: number,
  ) {}

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
      else this.waiting.push({ key, start });
    });
  }

  /** Starts every waiting task now (they see the scheduler stopped and end at once). */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.start();
  }

  get queued(): number {
    return this.waiting.length;
  }

  private fits(key: string | undefined): boolean {
    return this.running < this.max && (key === undefined || (this.runningByKey.get(key) ?? 0) < this.maxPerKey);
  }

  private startWaiting(): void {
    for (let index = 0; index < this.waiting.length && this.running < this.max; ) {
      const waiter = this.waiting[index];
      if (!this.fits(waiter.key)) {
        index++;
        continue;
      }
      this.waiting.splice(index, 1);
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
  }
}
