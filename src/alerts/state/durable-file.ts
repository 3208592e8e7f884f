import { closeSync, constants, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The temporary file is created, never opened as found: O_EXCL fails on anything already there
 * and O_NOFOLLOW on a symbolic link, so a link planted at `<name>.tmp` cannot redirect the write
 * to another file. What is found there (a crash's leftover, a planted link) is unlinked (the link
 * itself, never its target) and the creation tried once more.
 */
const CREATE_NEW = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW;
/** As a plain open would create it: the umask decides. */
const MODE = 0o666;

/**
 * Writes a file so that after a crash (kill -9, power loss) it holds either the old or the new
 * content: write a temporary file, fsync it, rename it over the old one, fsync the directory. A
 * failed write (a full disk) removes its temporary file, so failures cannot pile up files.
 */
/** A state file's text, or undefined when it was never written (a first start). */
export function readStateFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

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

/** writeFileDurably without blocking the event loop: for large files written while requests are served. */
export async function writeFileDurablyAsync(path: string, content: string): Promise<void> {
  await writeInBackground(path, content, { temporary: `${path}.tmp` });
}

/**
 * writeFileDurably off the event loop, for a file that is also written at once (writeFileDurably)
 * meanwhile: its own temporary file, and the content renamed into place only if `current()` still
 * says so once it is on disk. The rename is made on the event loop, so it is ordered with the writes
 * made at once there: an older content never replaces a newer one. Returns whether it was renamed.
 */
export async function writeInBackground(
  path: string,
  content: string,
  { temporary = `${path}.bg.tmp`, current = () => true }: { temporary?: string; current?: () => boolean } = {},
): Promise<boolean> {
  try {
    const file = await openNewAsync(temporary);
    try {
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
    if (!current()) {
      await unlink(temporary);
      return false;
    }
    renameSync(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
  return true;
}

function writeSynced(path: string, content: string): void {
  const fd = openNew(path);
  try {
    writeFileSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function openNew(path: string): number {
  try {
    return openSync(path, CREATE_NEW, MODE);
  } catch (error) {
    if (!foundInTheWay(error)) throw error;
    unlinkSync(path);
    return openSync(path, CREATE_NEW, MODE);
  }
}

async function openNewAsync(path: string) {
  try {
    return await open(path, CREATE_NEW, MODE);
  } catch (error) {
    if (!foundInTheWay(error)) throw error;
    await unlink(path);
    return await open(path, CREATE_NEW, MODE);
  }
}

/** EEXIST: a file or link is there; ELOOP: O_NOFOLLOW met a link (with O_EXCL, Linux says EEXIST). */
function foundInTheWay(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EEXIST' || code === 'ELOOP';
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
