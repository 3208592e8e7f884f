import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const VERSION = packageJson.version;
/** Set at image build time (AVAXMON_REVISION); "unknown" for a source checkout. */
export const REVISION = process.env.AVAXMON_REVISION ?? 'unknown';
