import { basename, isAbsolute, relative } from 'node:path';

/**
 * The command the user started avaxmon with, for hints to repeat: `avaxmon` from the installed bin,
 * `npm start --` from a clone's `npm start`, else `node` and the path of the script. A hint naming
 * `avaxmon` in a clone, where no such command exists, sends a newcomer looking for it.
 */
export function invocation(env = process.env, argv = process.argv, cwd = process.cwd()): string {
  if (env.npm_lifecycle_event === 'start') return 'npm start --';
  const script = argv[1] ?? 'dist/main.js';
  if (basename(script) === 'avaxmon') return 'avaxmon';
  const path = relative(cwd, script);
  return `node ${path.startsWith('..') || isAbsolute(path) ? script : path}`;
}
