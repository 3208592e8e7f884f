import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that after a crash (kill -9, power loss) it holds either the old or the new
 * content: write a temporary file, fsync it, rename it over the old one, fsync the directory. A
 * failed write (a full disk) removes its temporary file, so failures cannot pile up files.
 */
export function writeFileDurably(path: string, content: string): void {
  writeBatchDurably(dirname(path), [[basename(path), content]]);
}

/** Like writeFileDurably for many files of one directory, with one directory fsync for the whole batch. */
export function writeBatchDurably(directory: string, files: ReadonlyArray<readonly [string, string]>): void {
  const written: string[] = [];
  try {
    for (const [name, content] of files) {
      const temporary = join(directory, `${name}.tmp`);
      written.push(temporary);
      writeSynced(temporary, content);
    }
    for (const [name] of files) renameSync(join(directory, `${name}.tmp`), join(directory, name));
  } catch (error) {
    for (const temporary of written) removeQuietly(temporary);
    throw error;
  }
  fsyncDirectory(directory);
}

function writeSynced(path: string, content: string): void {
  const fd = openSync(path, 'w');
  try {
    writeFileSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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
