import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerfileParser, type Copy, type Env, type Instruction, type JSONInstruction } from 'dockerfile-ast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { PROCESS_ENV } from '../../src/runtime/process-settings.js';
import { freePort } from '../helpers/ports.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const dockerfile = DockerfileParser.parse(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));

interface Stage {
  readonly image: string;
  readonly name: string | null;
  readonly instructions: Instruction[];
}

/** Splits the Dockerfile into its build stages, each with the instructions after its FROM. */
function stages(): Stage[] {
  const result: { image: string; name: string | null; instructions: Instruction[] }[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const from = dockerfile.getFROMs().find((candidate) => candidate.getRange().start.line === instruction.getRange().start.line)!;
      result.push({ image: from.getImage() ?? '', name: from.getBuildStage(), instructions: [] });
    } else {
      result.at(-1)?.instructions.push(instruction);
    }
  }
  return result;
}

function only(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((instruction) => instruction.getKeyword() === keyword);
}

function jsonArgs(instruction: Instruction): string[] {
  return (instruction as JSONInstruction).getJSONStrings().map((argument) => argument.getJSONValue());
}

function runCommands(stage: Stage): string[] {
  return only(stage, 'RUN').flatMap((run) => (run.getArgumentsContent() ?? '').split('&&').map((part) => part.trim()));
}

/** The exec-form command of the runtime stage's HEALTHCHECK (flags are not part of the arguments). */
function healthcheckCommand(): string[] {
  const [healthcheck] = only(runtime(), 'HEALTHCHECK');
  const content = healthcheck.getArgumentsContent() ?? '';
  expect(content).toMatch(/^CMD \[/);
  return JSON.parse(content.slice('CMD '.length)) as string[];
}

const runtime = () => stages().at(-1)!;

function unquote(value: string): string {
  return value.replace(/^"(.*)"$/, '$1');
}
const build = () => stages()[0];

describe('Dockerfile (parsed with dockerfile-ast)', () => {
  it('is a multi-stage build on Node 24', () => {
    const all = stages();
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const stage of all) expect(stage.image).toMatch(/^node:24[-.]/);
  });

  it('builds in the first stage with the full install', () => {
    expect(runCommands(build())).toEqual(expect.arrayContaining([expect.stringMatching(/^npm ci\b/), 'npm run -s build']));
  });

  it('installs production dependencies only in the runtime stage, without install scripts', () => {
    const install = runCommands(runtime()).find((command) => command.startsWith('npm ci'));
    expect(install).toBeDefined();
    expect(install).toContain('--omit=dev');
    expect(install).toContain('--ignore-scripts');
    const copiedFromBuild = only(runtime(), 'COPY').filter((copy) => (copy as Copy).getFromFlag()?.getValue() === 'build');
    expect(copiedFromBuild.map((copy) => copy.getArguments().at(-2)?.getValue())).toEqual(['/src/dist']);
  });

  it('runs as a non-root user', () => {
    const users = only(runtime(), 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.getArgumentsContent()).not.toMatch(/^(root|0)(:|$)/);
  });

  it('checks health with avaxmon healthcheck (which follows the listen address, TLS and auth), without curl', () => {
    expect(healthcheckCommand()).toEqual(['node', 'dist/main.js', 'healthcheck']);
    for (const instruction of runtime().instructions) expect(instruction.getArgumentsContent()).not.toMatch(/\bcurl\b|\bwget\b/);
  });

  it('reads /etc/avaxmon/config.yaml, keeps state in a volume and exposes 9683', () => {
    expect(jsonArgs(only(runtime(), 'CMD').at(-1)!)).toEqual(['--config.file=/etc/avaxmon/config.yaml']);
    expect(only(runtime(), 'VOLUME').map((volume) => volume.getArgumentsContent())).toContainEqual(
      expect.stringContaining('/var/lib/avaxmon'),
    );
    expect(only(runtime(), 'EXPOSE').map((expose) => expose.getArgumentsContent())).toContain('9683');
    // The default alerts.state_dir (./data, relative to WORKDIR /app) must land on the volume.
    expect(only(runtime(), 'WORKDIR').at(-1)!.getArgumentsContent()).toBe('/app');
    expect(runCommands(runtime())).toContain('ln -s /var/lib/avaxmon /app/data');
  });

  it('starts node in exec form so SIGTERM reaches the daemon', () => {
    const entrypoint = only(runtime(), 'ENTRYPOINT').at(-1)! as JSONInstruction;
    expect(entrypoint.getOpeningBracket()).not.toBeNull();
    expect(jsonArgs(entrypoint)[0]).toBe('node');
    expect(jsonArgs(entrypoint).at(-1)).toBe('dist/main.js');
    for (const signal of only(runtime(), 'STOPSIGNAL')) expect(signal.getArgumentsContent()).toBe('SIGTERM');
  });

  it('takes VERSION and REVISION build arguments into build_info (through the environment) and the OCI labels', () => {
    const args = only(runtime(), 'ARG').map((arg) => arg.getArgumentsContent()?.split('=')[0]);
    expect(args).toEqual(expect.arrayContaining(['VERSION', 'REVISION']));
    const env = only(runtime(), 'ENV')
      .map((instruction) => instruction.getArgumentsContent() ?? '')
      .join(' ');
    expect(env).toContain('AVAXMON_VERSION=${VERSION}');
    expect(env).toContain('AVAXMON_REVISION=${REVISION}');
    const labels = only(runtime(), 'LABEL')
      .map((label) => label.getArgumentsContent() ?? '')
      .join(' ');
    for (const label of ['title', 'source', 'licenses="Apache-2.0"', 'version="${VERSION}"', 'revision="${REVISION}"']) {
      expect(labels).toContain(`org.opencontainers.image.${label}`);
    }
  });

  it('runs the daemon as npm start does, leaving the process settings to the daemon itself', () => {
    const env = Object.fromEntries(
      only(runtime(), 'ENV').flatMap((instruction) =>
        (instruction as Env).getProperties().map((property) => [property.getName(), unquote(property.getValue() ?? '')]),
      ),
    );
    for (const name of [...Object.keys(PROCESS_ENV), 'NODE_OPTIONS']) expect(env).not.toHaveProperty(name);
    expect(jsonArgs(only(runtime(), 'ENTRYPOINT').at(-1)!)).toEqual(['node', 'dist/main.js']);
  });

  it('keeps the build context small with .dockerignore', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.git', 'node_modules', 'dist']));
  });
});

describe("the runtime stage's install and command, outside a container", () => {
  let workDir: string;
  let sim: Simulator;
  let daemon: ChildProcess | undefined;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'avaxmon-image-'));
    sim = await startSimulator();
  }, 600_000);

  afterAll(async () => {
    if (daemon?.exitCode === null) daemon.kill('SIGKILL');
    await sim?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('installs production dependencies only, starts, answers /-/healthy and exits 0 on SIGTERM', async () => {
    copyContextFiles(workDir);
    copyBuildOutput(join(workDir, 'dist'));

    const install = runCommands(runtime()).find((command) => command.startsWith('npm ci'))!;
    const npm = spawnSync('sh', ['-c', install], {
      cwd: workDir,
      encoding: 'utf8',
      env: { ...process.env, npm_config_prefer_offline: 'true', NODE_ENV: 'production' },
    });
    expect(npm.status, npm.stderr).toBe(0);
    expect(existsSync(join(workDir, 'node_modules/fastify/package.json'))).toBe(true);
    expect(existsSync(join(workDir, 'node_modules/vitest'))).toBe(false);
    expect(existsSync(join(workDir, 'node_modules/typescript'))).toBe(false);

    const configFile = join(workDir, 'config.yaml');
    writeFileSync(configFile, `global: { interval: 1s, timeout: 1s }\ntargets:\n  - name: node-a\n    url: ${sim.url}\n`);
    const port = await freePort();
    const entrypoint = jsonArgs(only(runtime(), 'ENTRYPOINT').at(-1)!);
    const command = [...entrypoint.slice(1), `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`];
    daemon = spawn(process.execPath, command, { cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    daemon.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const healthy = await waitForStatus(`http://127.0.0.1:${port}/-/healthy`, 60_000, () => daemon!.exitCode !== null);
    expect(healthy, output).toBe(200);

    // It runs against the simulator from the config it was given, not just a listening socket.
    expect(await waitForMetric(`http://127.0.0.1:${port}/metrics`, /^avaxmon_target_up\{target="node-a"\} 1$/m, 60_000), output).toBe(true);

    // The image's own HEALTHCHECK command. Here the daemon is not PID 1, so the test hands it the
    // daemon's listen address, as PID 1's command line would in the container.
    const healthcheck = healthcheckCommand();
    expect(healthcheck[0]).toBe('node');
    const probe = spawnSync(process.execPath, [...healthcheck.slice(1), `--web.listen-address=127.0.0.1:${port}`], {
      cwd: workDir,
      encoding: 'utf8',
    });
    expect(probe.status, probe.stderr).toBe(0);
    expect(probe.stdout).toContain(`http://127.0.0.1:${port}/-/healthy: HTTP 200`);

    // 'close', not 'exit': a failure quotes its output, whose last lines can arrive after the exit.
    const exitCode = await new Promise<number | null>((resolve) => {
      daemon!.once('close', (code) => resolve(code));
      daemon!.kill('SIGTERM');
    });
    expect(exitCode, output).toBe(0);
  }, 600_000);

  it('reports the build arguments in avaxmon_build_info, as the image ENV passes them', () => {
    // Only /probe targets: a valid config whose one-shot collect has nothing to run, so it exits 0.
    const configFile = join(workDir, 'probe-only.yaml');
    writeFileSync(configFile, "probe:\n  allowed_targets: ['http://10.0.*.*:9650']\n");
    const collect = spawnSync(process.execPath, [join(ROOT, 'dist/main.js'), 'collect', `--config.file=${configFile}`], {
      encoding: 'utf8',
      env: { ...process.env, AVAXMON_VERSION: '9.8.7', AVAXMON_REVISION: '0123abc' },
    });
    expect(collect.status, collect.stderr).toBe(0);
    expect(collect.stdout).toMatch(/^avaxmon_build_info\{version="9\.8\.7",node_version="v[\d.]+",revision="0123abc"\} 1$/m);
  });
});

/**
 * The build stage's output: dist/ when `npm run build` made it after the last source change (npm test
 * builds first), else the same compiler and tsconfig run into the clean copy.
 */
function copyBuildOutput(destination: string): void {
  const built = join(ROOT, 'dist/main.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(ROOT, 'src'))) {
    cpSync(join(ROOT, 'dist'), destination, { recursive: true });
    return;
  }
  const tsc = spawnSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', destination], {
    encoding: 'utf8',
  });
  expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
}

function newestMtime(directory: string): number {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

/** Copies what the runtime stage COPYs from the build context, from a clean list of tracked files. */
function copyContextFiles(workDir: string): void {
  const sources = only(runtime(), 'COPY')
    .filter((copy) => (copy as Copy).getFromFlag() === null)
    .flatMap((copy) =>
      copy
        .getArguments()
        .slice(0, -1)
        .map((argument) => argument.getValue()),
    );
  expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json']));
  for (const source of sources) {
    const tracked = spawnSync('git', ['ls-files', '--', source], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    const files = tracked.length > 0 ? tracked : [source];
    for (const file of files) cpSync(join(ROOT, file), join(workDir, file), { recursive: true });
  }
}

async function waitForStatus(url: string, timeoutMs: number, exited: () => boolean): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited()) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return 200;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

async function waitForMetric(url: string, line: RegExp, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const body = await fetch(url).then((response) => response.text());
    if (line.test(body)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}
