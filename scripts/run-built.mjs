// `npm start`, `npm run demo` and the other npm scripts that run dist/: `node scripts/run-built.mjs
// main [args]` runs dist/main.js with the args as if started directly (the daemon's re-execution
// with its process settings then runs dist/main.js itself). Before a build it says what to run
// instead of printing a MODULE_NOT_FOUND stack.
import './require-node.mjs';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [, , entry, ...args] = process.argv;
const file = new URL(`../dist/${entry}.js`, import.meta.url).pathname;
const missing = !existsSync(new URL('../node_modules/fastify/package.json', import.meta.url))
  ? 'the dependencies are not installed: run `npm ci && npm run build` first'
  : !existsSync(file)
    ? `dist/${entry}.js is not built yet: run \`npm run build\` first`
    : undefined;
if (missing) {
  process.stderr.write(`avaxmon: ${missing}\n`);
  process.exit(1);
}
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);
