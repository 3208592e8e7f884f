import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a file so that after a crash (kill -9, power loss) it holds either the old or the new
 * content: write a temporary file, fsync it, rename it over the old one, fsync the directory. A
 * failed write (a full disk) removes its temporary file, so failures cannot pile up files.
 */
export function writeFileDurably(path: string, content: string): void {
  const temporary = `${path}.tmp`;
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeFileSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    removeQuietly(temporary);
    throw error;
  }
  fsyncDirectory(dirname(path));
}

export function fsyncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Best effort: the write's own error is the one worth reporting. */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Never created, or not removable either; nothing more to do.
  }
}
