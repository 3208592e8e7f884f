import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The image's VERSION build argument (AVAXMON_VERSION) when set, else package.json's. */
export const VERSION = process.env.AVAXMON_VERSION || packageJson.version;
/** The image's REVISION build argument (AVAXMON_REVISION) when set, else the commit `npm run build` recorded. */
export const REVISION = process.env.AVAXMON_REVISION || builtRevision() || 'unknown';

function builtRevision(): string | undefined {
  try {
    return readFileSync(new URL('../revision.txt', import.meta.url), 'utf8').trim() || undefined;
  } catch {
    return undefined; // run from source, or built outside a git checkout
  }
}
