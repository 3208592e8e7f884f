/** What a shell reports for a process a closed pipe stopped (128 + SIGPIPE). */
export const EXIT_BROKEN_PIPE = 141;

/**
 * A reader that went away (`avaxmon collect | head`, a pager closed, a log collector gone) ends the
 * process at once, as SIGPIPE ends a Go exporter: nothing is left to write to, and waiting to write
 * would hang or crash with a stack trace nobody can see. The daemon loses nothing by it: its outbox and
 * alert state are on disk, and its supervisor starts it again. Other stream errors are not hidden.
 */
export function exitOnBrokenPipe(stream: { on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown }): void {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(EXIT_BROKEN_PIPE);
  });
}
