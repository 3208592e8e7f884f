import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** The image's VERSION build argument (AVAXMON_VERSION) when set, else package.json's. */
export const VERSION = process.env.AVAXMON_VERSION || packageJson.version;
/** Set at image build time (the REVISION build argument, as AVAXMON_REVISION); "unknown" for a source checkout. */
export const REVISION = process.env.AVAXMON_REVISION || 'unknown';
