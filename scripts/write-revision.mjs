// Records the commit the build came from in dist/revision.txt, so a source checkout and the npm
// package show their revision on the status page and in avaxmon_build_info. Outside a git checkout
// (an unpacked tarball rebuilding) the file is left as it is.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

try {
  const revision = execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  writeFileSync(new URL('../dist/revision.txt', import.meta.url), `${revision}\n`);
} catch {
  // not a git checkout, or git is not installed
}
