import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { assembleNodeBaseImage, BUSYBOX, buildah } from '../helpers/base-image.js';
import { freePort } from '../helpers/ports.js';
import { requireTool } from '../helpers/tools.js';
import { until } from '../helpers/until.js';

/**
 * The real Dockerfile, built by Debian's buildah (chroot isolation, vfs storage: no daemon, no
 * registry) on a locally assembled stand-in for its FROM image, then run. Every COPY and RUN runs as
 * written, so a file the build needs but does not copy fails here.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const IMAGE = 'localhost/avaxmon-image-test';
const REVISION = 'image-test-rev';
const VERSION = '9.9.9';
/** npm's cache survives runs here; the builds see it through an overlay, so the image's `npm cache clean` leaves it alone. */
const NPM_CACHE = join(tmpdir(), 'avaxmon-image-npm-cache');

const available = process.getuid?.() === 0 || process.env.CI === 'true';
const tools = available && requireTool('/usr/bin/buildah', 'buildah') && requireTool(BUSYBOX, 'busybox-static');
if (!available) console.warn('skipping: building the image with buildah needs root (CI runs as root)');

interface ImageConfig {
  Entrypoint: string[];
  Cmd: string[];
  User: string;
  Env: string[];
  Healthcheck?: { Test: string[] };
}

describe.runIf(tools)('the Dockerfile, built with buildah and run', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'avaxmon-image-build-'));
  const storage = join(scratch, 'storage');
  const run = buildah(storage);
  const storageFlags = ['--root', join(storage, 'root'), '--runroot', join(storage, 'run'), '--storage-driver', 'vfs'];
  let container = '';
  let config: ImageConfig;
  let sim: Simulator;
  let daemon: ChildProcess | undefined;
  /** Where the image's daemon listens: what finds it if killing `buildah run` did not reach it. */
  let daemonAddress: string | undefined;

  beforeAll(async () => {
    sim = await startSimulator();
    const from = /^FROM\s+(\S+)/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))![1];
    assembleNodeBaseImage(run, `docker.io/library/${from}`, 24, scratch);
    warmNpmCache(scratch);
    const npmrc = join(scratch, 'npmrc');
    writeFileSync(npmrc, 'prefer-offline=true\n');
    const build = spawnSync(
      'buildah',
      [
        ...storageFlags,
        'bud',
        ...['--pull=never', '--isolation=chroot', '--network=host', '--format=docker', '--layers=false'],
        ...['--volume', `${NPM_CACHE}:/root/.npm:O`, '--volume', `${npmrc}:/root/.npmrc:ro`],
        ...['--build-arg', `VERSION=${VERSION}`, '--build-arg', `REVISION=${REVISION}`, '--tag', IMAGE, ROOT],
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(build.status, `buildah bud failed:\n${build.stdout.slice(-4000)}\n${build.stderr.slice(-4000)}`).toBe(0);
    config = JSON.parse(run(['inspect', '--type', 'image', IMAGE])).Docker.config as ImageConfig;
    container = run(['from', '--pull=never', IMAGE]).trim();
  }, 900_000);

  afterAll(async () => {
    if (daemon && daemon.exitCode === null) daemon.kill('SIGKILL');
    // Killing `buildah run` does not always reach the daemon it runs (one was left running after a
    // run beside the CPU hog): its unique listen address finds it.
    if (daemonAddress) spawnSync('pkill', ['-KILL', '-f', '--', `--web.listen-address=${daemonAddress}`]);
    await sim?.close();
    if (container) spawnSync('buildah', [...storageFlags, 'rm', container]);
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  /** Runs a command in the built image as its USER, with the host's network (the simulator is on loopback). */
  function inImage(command: string[], volumes: string[] = []): string[] {
    const mounts = volumes.flatMap((volume) => ['--volume', volume]);
    return [
      ...storageFlags,
      'run',
      ...['--isolation=chroot', '--network=host', '--user', config.User, ...mounts, container, '--', ...command],
    ];
  }

  it('prints its version with the revision it was built with', () => {
    const result = spawnSync('buildah', inImage([...config.Entrypoint, '--version']), { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^avaxmon ${VERSION.replaceAll('.', '\\.')} \\(revision ${REVISION}, node v24\\.`));
    expect(config.User).toBe('node');
  });

  it('collects one round against the simulator', async () => {
    const configFile = join(scratch, 'collect.yaml');
    writeFileSync(configFile, `targets:\n  - name: node-a\n    url: ${sim.url}\n`);
    // Not spawnSync: the simulator answers from this process's event loop.
    const result = await runAsync(
      inImage([...config.Entrypoint, 'collect', '--config.file=/etc/avaxmon/config.yaml'], [`${configFile}:/etc/avaxmon/config.yaml:ro`]),
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^avaxmon_target_up\{target="node-a"\} 1$/m);
    expect(result.stdout).toMatch(/^avaxmon_node_healthy\{target="node-a"\} 1$/m);
    expect(result.stdout).toContain(`revision="${REVISION}"`);
  }, 60_000);

  it('runs the daemon from its ENTRYPOINT and CMD, and its HEALTHCHECK command passes', async () => {
    const configFile = join(scratch, 'daemon.yaml');
    writeFileSync(configFile, `global: { interval: 1s, timeout: 500ms }\ntargets:\n  - name: node-a\n    url: ${sim.url}\n`);
    const port = await freePort();
    daemonAddress = `127.0.0.1:${port}`;
    expect(config.Cmd).toEqual(['--config.file=/etc/avaxmon/config.yaml']);
    daemon = spawn(
      'buildah',
      inImage(
        [...config.Entrypoint, ...config.Cmd, `--web.listen-address=127.0.0.1:${port}`],
        [`${configFile}:/etc/avaxmon/config.yaml:ro`],
      ),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    daemon.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    daemon.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    await until(async () => {
      if (daemon!.exitCode !== null) throw new Error(`the daemon exited: ${output}`);
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (response) => response.text(),
        () => '',
      );
      return /^avaxmon_target_up\{target="node-a"\} 1$/m.test(metrics);
    }, 60_000);

    // The HEALTHCHECK's exec form, run in the image. Under chroot isolation the daemon is not PID 1,
    // so the command gets the daemon's listen address the way PID 1's command line gives it in a container.
    const test = config.Healthcheck?.Test ?? [];
    expect(test[0]).toBe('CMD');
    const probe = spawnSync('buildah', inImage([...test.slice(1), `--web.listen-address=127.0.0.1:${port}`]), { encoding: 'utf8' });
    expect(probe.status, probe.stdout + probe.stderr).toBe(0);
    expect(probe.stdout).toContain(`http://127.0.0.1:${port}/-/healthy: HTTP 200`);
    daemon.kill('SIGTERM');
  }, 120_000);
});

/**
 * Fills the persistent npm cache from the lockfile on the host (quick once warm), so the image's
 * `npm ci` steps find every tarball without the registry.
 */
function warmNpmCache(scratch: string): void {
  const directory = join(scratch, 'npm-warm');
  mkdirSync(directory);
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(directory, file));
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--cache', NPM_CACHE], {
    cwd: directory,
    stdio: 'ignore',
  });
  rmSync(directory, { recursive: true, force: true });
}

function runAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('buildah', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
