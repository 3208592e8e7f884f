// `npm run dev -- [avaxmon args]`: the contributor loop. tsc rebuilds dist/ on every source change
// and node restarts the daemon on every rebuilt file; Ctrl-C stops both.
import './require-node.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const tsc = new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname;
const main = new URL('../dist/main.js', import.meta.url).pathname;
const dist = new URL('../dist', import.meta.url).pathname;
if (!existsSync(tsc)) {
  process.stderr.write('avaxmon: the dev dependencies are not installed: run `npm ci` first\n');
  process.exit(1);
}

const compiler = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let daemon;
compiler.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  // tsc prints "Found N errors. Watching for file changes." after each build; start once, node --watch does the rest.
  if (!daemon && /Found 0 errors/.test(chunk.toString())) {
    daemon = spawn(process.execPath, ['--watch-path', dist, main, ...process.argv.slice(2)], { stdio: 'inherit' });
  }
});
const stop = () => {
  compiler.kill('SIGTERM');
  daemon?.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
compiler.on('exit', (code) => process.exit(code ?? 0));
