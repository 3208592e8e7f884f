import { writeFileDurablyAsync } from './durable-file.js';

/**
 * A state file written in the background, one write at a time: changes made while a write is under
 * way are written together by one more write, so a burst of changes costs two writes, not one per
 * change, and no write blocks the event loop. The content is taken when the write starts.
 */
export class CoalescedWrite {
  private writing?: Promise<void>;
  private dirty = false;

  constructor(
    private readonly path: string,
    private readonly content: () => string,
    private readonly outcome: { failed(error: unknown): void; succeeded(): void },
  ) {}

  /** Asks for a write of the current content; returns at once. */
  request(): void {
    this.dirty = true;
    this.writing ??= this.drain();
  }

  /** Resolves once every requested write has been made (or has failed, which `outcome` was told). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    // Let the changes of this tick join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeFileDurablyAsync(this.path, this.content());
        this.outcome.succeeded();
      } catch (error) {
        // Kept in memory; the next change writes again.
        this.outcome.failed(error);
      }
    }
    this.writing = undefined;
  }
}
