import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { invocation } from '../runtime/invocation.js';

const STARTER = new URL('../../config.minimal.yaml', import.meta.url);
const SCHEMA = new URL('../../config.schema.json', import.meta.url);
const EXAMPLE = new URL('../../config.example.yaml', import.meta.url);

/**
 * `avaxmon init [FILE]`: writes the starter config (config.minimal.yaml: one local node, no secrets)
 * where the daemon looks by default, never over an existing file, and says what to run next. Its
 * comments are rewritten for where it lands: the schema and the full example by absolute location
 * (a relative one breaks outside the package), the commands with FILE and the `avaxmon` command.
 */
export function runInit(file: string): number {
  const run = invocation();
  try {
    writeFileSync(file, starterFor(file, run), { flag: 'wx' });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'it already exists; nothing was changed' : (error as Error).message;
    process.stderr.write(`avaxmon: cannot write ${file}: ${reason}\n`);
    return 1;
  }
  process.stdout.write(
    `Wrote ${file}: one AvalancheGo node at http://127.0.0.1:9650, no secrets.\n` +
      `Next: edit the url if your node listens elsewhere, then check it and start:\n` +
      `  ${run} check-config ${file}\n  ${run} --config.file=${file}\n`,
  );
  return 0;
}

export function starterFor(file: string, run = invocation()): string {
  const written = resolve(file);
  return readFileSync(STARTER, 'utf8')
    .replace(/\$schema=\S+/, `$schema=${pathToFileURL(fileURLToPath(SCHEMA)).href}`)
    .replace('npm start -- --config.file=config.minimal.yaml', `${run} --config.file=${written}`)
    .replaceAll('--config.file=config.minimal.yaml', `--config.file=${written}`)
    .replace('Every key, with its default: config.example.yaml.', `Every key, with its default: ${fileURLToPath(EXAMPLE)}.`)
    .replace('avaxmon check-config FILE', `${run} check-config ${written}`)
    .replace('avaxmon test-alert', `${run} test-alert`);
}
