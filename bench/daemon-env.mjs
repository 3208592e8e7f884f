// The environment the shipped launchers give the daemon (deploy/memory.env), so a benchmark
// measures the process as users run it. MEMORY_ENV=off leaves Node's defaults, for a comparison.
import { readFileSync } from 'node:fs';

const file = new URL('../deploy/memory.env', import.meta.url);
const settings = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => /^[A-Z_]+=/.test(line))
  .map((line) => line.split(/=(.*)/s).slice(0, 2))
  .map(([key, value]) => [key, value.replace(/^"(.*)"$/, '$1')]);

const off = process.env.MEMORY_ENV === 'off';
export const daemonEnv = off ? process.env : { ...process.env, ...Object.fromEntries(settings) };
/** The node flags the launchers put before dist/main.js (AVAXMON_NODE_FLAGS). */
export const daemonArgs = off ? [] : (Object.fromEntries(settings).AVAXMON_NODE_FLAGS ?? '').split(' ').filter(Boolean);
