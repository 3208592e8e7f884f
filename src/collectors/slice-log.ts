import type { Level, Logger } from 'pino';

/**
 * What a collector run logs through: pino's level methods, each line carrying its slice's bindings.
 * `quiet` holds while the slice's target cannot be reached at all: the target says so in one line
 * of its own (see TargetReachabilityLog), so a collector keeps the failures that follow to debug and
 * announces neither their start nor their end.
 */
export type SliceLog = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'> & { readonly quiet?: boolean };

/**
 * A slice's logger without a pino child kept per slice: a child copies its bindings into objects of
 * its own, kept for good for every slice of a fleet
 * (docs/decisions.md#a-fleets-per-slice-state-shared-without-closures), and most slices never log. The child is made per line instead, and only at a level that is enabled. One object
 * per run, its methods on the prototype: a run makes no closures for lines it never writes.
 */
export function sliceLog(
  parent: Logger,
  slice: { readonly target: string; readonly collector: string },
  targetDown: () => boolean = () => false,
): SliceLog {
  return new ChildPerLine(parent, slice, targetDown);
}

class ChildPerLine implements SliceLog {
  constructor(
    private readonly parent: Logger,
    private readonly slice: { readonly target: string; readonly collector: string },
    private readonly targetDown: () => boolean,
  ) {}

  get quiet(): boolean {
    return this.targetDown();
  }

  debug(...line: unknown[]): void {
    this.write('debug', line);
  }

  info(...line: unknown[]): void {
    this.write('info', line);
  }

  warn(...line: unknown[]): void {
    this.write('warn', line);
  }

  error(...line: unknown[]): void {
    this.write('error', line);
  }

  private write(level: Level, line: unknown[]): void {
    if (!this.parent.isLevelEnabled(level)) return;
    const { target, collector } = this.slice;
    (this.parent.child({ target, collector })[level] as (...args: unknown[]) => void)(...line);
  }
}
