import { copyFileSync, constants } from 'node:fs';

const STARTER = new URL('../../config.minimal.yaml', import.meta.url);

/**
 * `avaxmon init [FILE]`: writes the starter config (config.minimal.yaml: one local node, no secrets)
 * where the daemon looks by default, never over an existing file, and says what to run next.
 */
export function runInit(file: string): number {
  try {
    copyFileSync(STARTER, file, constants.COPYFILE_EXCL);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'it already exists; nothing was changed' : (error as Error).message;
    process.stderr.write(`avaxmon: cannot write ${file}: ${reason}\n`);
    return 1;
  }
  process.stdout.write(
    `Wrote ${file}: one AvalancheGo node at http://127.0.0.1:9650, no secrets.\n` +
      `Next: edit the url if your node listens elsewhere, then check it and start:\n` +
      `  avaxmon check-config ${file}\n  avaxmon --config.file=${file}\n`,
  );
  return 0;
}
