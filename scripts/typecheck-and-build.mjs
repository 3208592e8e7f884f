// `npm test`'s type-check and build, side by side: two tsc runs of about ten seconds each that share
// nothing, so on two cores they take the time of one. Each one's output is printed once it ends,
// whole, so their errors do not interleave; the exit code is the first failure's.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all([run('typecheck'), run('build')]);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
