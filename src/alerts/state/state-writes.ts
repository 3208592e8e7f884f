import type { Clock, Timer } from '../../schedule/clock.js';
import { writeFileDurably, writeInBackground } from './durable-file.js';
import type { StateFile, WriteFailures } from './write-failures.js';

/** A state file as the writes see it: where it goes, and its content as of now. */
export interface OrderedFile {
  readonly name: StateFile;
  readonly path: string;
  content(): string;
}

/**
 * Background writes start at most this often: under a churn of alerts (a fleet short of CPU, its
 * collectors timing out and recovering) each one serialises every open alert, and one a second
 * bounds that. A kill -9 loses at most the changes of this long that queued no notification.
 */
export const BACKGROUND_WRITE_SPACING_MS = 1_000;

interface FileState {
  readonly file: OrderedFile;
  /** Changed since its content was last taken for a write. */
  dirty: boolean;
  /** Taken by the background write under way and not yet in place: a write at once of a later file must write it first. */
  inBackground: boolean;
  /** The sequence number of the content now in place; a write with an older one is not renamed in. */
  renamed: number;
  /** The text of the last successful write: the same text is not written again. */
  lastWritten?: string;
}

/**
 * State files written in a fixed order, evaluation's alerts (`alerts.json`) before the notification
 * log (`nflog.json`), never one ahead of a file before it: killed in between, a restart finds the log
 * behind the alerts, which it repairs by queuing again under the same keys (see dispatcher.persist).
 * A change is written at once (`now`: what must be on disk before the caller goes on, as the alerts
 * an evaluation queued notifications about) or in the background (`soon`): coalesced, at most one
 * write a BACKGROUND_WRITE_SPACING_MS, its fsyncs off the event loop. A failed write is counted,
 * logged once per burst, and tried again in the background; the files after it wait for it.
 */
export class OrderedStateWrites {
  private readonly files: FileState[];
  private sequence = 0;
  private background?: Promise<void>;
  private timer?: Timer;
  private lastBackgroundMs = -Infinity;
  private stopped = false;

  constructor(
    files: readonly OrderedFile[],
    private readonly failures: WriteFailures,
    private readonly clock: Clock,
  ) {
    this.files = files.map((file) => ({ file, dirty: false, inBackground: false, renamed: 0 }));
  }

  /** Records what was read from disk at a start: an unchanged content is not written again. */
  loaded(name: StateFile, text: string): void {
    this.state(name).lastWritten = text;
  }

  /** Writes `name`, and every changed file before it, now; returns whether they are on disk. */
  now(name: StateFile): boolean {
    this.state(name).dirty = true;
    for (const state of this.files) {
      if ((state.dirty || state.inBackground) && !this.writeNow(state)) return false;
      if (state.file.name === name) return true;
    }
    return true;
  }

  /** Writes `name` in the background, with whatever else changed by then. */
  soon(name: StateFile): void {
    this.state(name).dirty = true;
    this.schedule();
  }

  /** Ends the background writes and writes what is left at once: a stop waits for no spacing. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    while (this.background) await this.background;
    const last = this.files.at(-1);
    if (last && this.files.some((state) => state.dirty)) this.now(last.file.name);
  }

  private state(name: StateFile): FileState {
    const state = this.files.find((each) => each.file.name === name);
    if (!state) throw new Error(`not an ordered state file: ${name}`);
    return state;
  }

  private schedule(): void {
    if (this.stopped || this.background || this.timer) return;
    const waitMs = Math.max(0, this.lastBackgroundMs + BACKGROUND_WRITE_SPACING_MS - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.background = this.writeInBackground().finally(() => {
        this.background = undefined;
        if (this.files.some((state) => state.dirty)) this.schedule();
      });
    }, waitMs);
    this.timer.unref();
  }

  private writeNow(state: FileState): boolean {
    state.dirty = true;
    const text = this.take(state);
    if (text === undefined) return true;
    const sequence = ++this.sequence;
    try {
      writeFileDurably(state.file.path, text);
    } catch (error) {
      return this.failed(state, error);
    }
    this.succeeded(state, sequence, text);
    return true;
  }

  /** Takes every changed file's content at one moment, then writes them in order. */
  private async writeInBackground(): Promise<void> {
    this.lastBackgroundMs = this.clock.now();
    const taken = this.files.map((state) => ({ state, text: this.take(state), sequence: ++this.sequence }));
    for (const { state, text } of taken) state.inBackground = text !== undefined;
    for (const [index, { state, text, sequence }] of taken.entries()) {
      if (text === undefined) continue;
      try {
        const renamed = await writeInBackground(state.file.path, text, { current: () => sequence > state.renamed });
        if (renamed) this.succeeded(state, sequence, text);
      } catch (error) {
        // The files after it keep their changes for the next write.
        for (const later of taken.slice(index + 1)) {
          later.state.dirty ||= later.state.inBackground;
          later.state.inBackground = false;
        }
        this.failed(state, error);
        return;
      } finally {
        state.inBackground = false;
      }
    }
  }

  /** The file's content if it changed and differs from what is on disk; clears its change. */
  private take(state: FileState): string | undefined {
    if (!state.dirty) return undefined;
    state.dirty = false;
    const text = state.file.content();
    return text === state.lastWritten ? undefined : text;
  }

  private succeeded(state: FileState, sequence: number, text: string): void {
    state.renamed = sequence;
    state.lastWritten = text;
    this.failures.succeeded(state.file.name);
  }

  /** Kept in memory and tried again in the background: only a restart before then would lose it. */
  private failed(state: FileState, error: unknown): false {
    state.dirty = true;
    this.failures.failed(state.file.name, error);
    this.schedule();
    return false;
  }
}
