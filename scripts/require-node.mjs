// Imported first by the npm scripts that start something (run-built.mjs, dev.mjs): on a Node.js
// older than package.json's `engines` they stop with one line saying so, before anything that
// needs a newer one fails with a cryptic error.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const floor = Number(/(\d+)/.exec(engines.node)[1]);
if (Number(process.versions.node.split('.')[0]) < floor) {
  process.stderr.write(
    `avaxmon needs Node.js ${floor} or newer (engines: ${engines.node}); this is Node.js ${process.version} (${process.execPath}). Install Node.js ${floor} or 24 and put it first on PATH.\n`,
  );
  process.exit(1);
}
