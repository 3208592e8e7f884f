import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
/** Debian's busybox-static: one static binary for the shell and the tools the Dockerfile's RUN lines use. */
export const BUSYBOX = '/bin/busybox';
const BUSYBOX_APPLETS = ['sh', 'env', 'mkdir', 'chown', 'ln', 'rm', 'cp', 'ls', 'cat', 'id'];

/** A buildah bound to its own storage, so a test leaves the machine's image store alone. */
export function buildah(storage: string) {
  const base = ['--root', join(storage, 'root'), '--runroot', join(storage, 'run'), '--storage-driver', 'vfs'];
  return (args: string[], options: { input?: string } = {}): string =>
    execFileSync('buildah', [...base, ...args], { encoding: 'utf8', input: options.input, maxBuffer: 64 * 1024 * 1024 });
}

/**
 * What the Dockerfile's FROM image offers, assembled without a registry: the official Node.js binary
 * of `major` (.ci/node-bin) with the shared libraries it links, npm in /usr/local/lib/node_modules, a
 * POSIX shell, and the unprivileged `node` user (uid 1000) of the official image. Committed under
 * `name`, so `buildah bud --pull=never` takes it as the FROM image.
 */
export function assembleNodeBaseImage(run: ReturnType<typeof buildah>, name: string, major: number, scratch: string): void {
  const rootfs = join(scratch, 'rootfs');
  const nodeBin = execFileSync('bash', [join(ROOT, '.ci/node-bin'), String(major)], { encoding: 'utf8' }).trim();
  const node = join(nodeBin, 'node');
  install(node, join(rootfs, 'usr/local/bin/node'));
  for (const library of sharedLibraries(node)) install(library, join(rootfs, library));
  for (const directory of ['bin', 'usr/bin', 'etc', 'root', 'tmp', 'home/node']) mkdirSync(join(rootfs, directory), { recursive: true });
  install(BUSYBOX, join(rootfs, 'bin/busybox'));
  for (const applet of BUSYBOX_APPLETS) symlinkSync('busybox', join(rootfs, 'bin', applet));
  symlinkSync('/bin/env', join(rootfs, 'usr/bin/env'));
  installNpm(major, rootfs, scratch);
  writeFileSync(join(rootfs, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
  writeFileSync(join(rootfs, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
  chmodSync(join(rootfs, 'tmp'), 0o1777);
  chownSync(join(rootfs, 'home/node'), 1000, 1000);

  const container = run(['from', 'scratch']).trim();
  try {
    const mount = run(['mount', container]).trim();
    execFileSync('cp', ['-a', `${rootfs}/.`, `${mount}/`]);
    run(['umount', container]);
    run(['config', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '--cmd', 'node', container]);
    run(['commit', '--quiet', container, name]);
  } finally {
    run(['rm', container]);
  }
}

/** The npm the official Node.js image of `major` carries (Node 24 ships npm 11, Node 22 npm 10). */
function installNpm(major: number, rootfs: string, scratch: string): void {
  const npmMajor = major >= 24 ? 11 : 10;
  const tarball = execFileSync('npm', ['pack', '--silent', `npm@${npmMajor}`], { cwd: scratch, encoding: 'utf8' }).trim();
  const directory = join(rootfs, 'usr/local/lib/node_modules/npm');
  mkdirSync(directory, { recursive: true });
  execFileSync('tar', ['xzf', join(scratch, tarball), '-C', directory, '--strip-components=1']);
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
}

/** The absolute paths ldd lists for a binary, the dynamic loader included. */
function sharedLibraries(binary: string): string[] {
  return [...execFileSync('ldd', [binary], { encoding: 'utf8' }).matchAll(/(\/\S+\.so[.\d]*)/g)].map((match) => match[1]);
}

function install(source: string, destination: string): void {
  mkdirSync(dirname(destination), { recursive: true });
  copyFileSync(realpathSync(source), destination);
  chmodSync(destination, 0o755);
}
