import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './until.js';

/**
 * Two hosts of the test's own: network namespaces joined by a veth pair, with addresses of a private
 * /30 that exist only inside them, so nothing reaches this machine's own network. The built daemon
 * runs on one (the "daemon host", listening on `:9683` as the README runs it) and requests come
 * from the other (the "attacker host"), as a pod or machine on the same network would send them.
 * Needs root and `ip` (iproute2); CI runs as root.
 */

export const DAEMON_ADDRESS = '10.254.0.1';
export const ATTACKER_ADDRESS = '10.254.0.2';
const PREFIX_LENGTH = 30;

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const CLIENT = fileURLToPath(new URL('./raw-http-client.mjs', import.meta.url));
/** Interface names are at most 15 characters: prefix, pid and a counter fit. */
const PREFIX = (process.env.AVAXMON_NETNS_PREFIX ?? 'avx').slice(0, 4);
let hosts = 0;

export interface RawRequest {
  readonly method: string;
  /** Sent as written: no normalization, no encoding. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** An answer, or (status undefined) the error that stopped the request. */
export interface RawResponse {
  readonly status?: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  readonly error?: string;
}

/** Why network namespaces cannot be made here, or undefined when they can. */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'ip netns needs root';
  const probe = `${PREFIX}${process.pid}probe`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (added.error) return `ip (iproute2) is not installed: ${added.error.message}`;
  if (added.status !== 0) return `ip netns add failed: ${added.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return undefined;
}

/**
 * For a test file's top level: undefined when the suite can run; otherwise the reason, printed, to
 * skip it. Under CI, where the suite must run, it throws instead, so the file fails rather than skips.
 */
export function attackerSuiteSkipReason(): string | undefined {
  const reason = netnsUnavailable();
  if (!reason) return undefined;
  if (process.env.CI && process.env.CI !== 'false') throw new Error(`the attacker suite cannot run under CI: ${reason}`);
  console.warn(`skipping the attacker suite: ${reason}`);
  return reason;
}

function ip(args: readonly string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')}: ${result.error?.message ?? result.stderr.trim()}`);
}

/** The built daemon running on the daemon host. */
export interface HostDaemon {
  readonly port: number;
  readonly process: ChildProcess;
  /** Its log lines, parsed (the daemon logs JSON). */
  readonly logs: Array<Record<string, unknown>>;
  /** Log lines with this message, e.g. 'State-changing request refused'. */
  logged(message: string): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

export class AttackerHost {
  private readonly processes = new Set<ChildProcess>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'avaxmon-attacker-'));

  private constructor(
    readonly daemonNamespace: string,
    readonly attackerNamespace: string,
  ) {}

  static start(): AttackerHost {
    const id = `${PREFIX}${process.pid}${hosts++}`;
    const host = new AttackerHost(`${id}-daemon`, `${id}-attacker`);
    try {
      ip(['netns', 'add', host.daemonNamespace]);
      ip(['netns', 'add', host.attackerNamespace]);
      ip([
        'link',
        'add',
        `${id}d`,
        'netns',
        host.daemonNamespace,
        'type',
        'veth',
        'peer',
        'name',
        `${id}a`,
        'netns',
        host.attackerNamespace,
      ]);
      for (const [namespace, link, address] of [
        [host.daemonNamespace, `${id}d`, DAEMON_ADDRESS],
        [host.attackerNamespace, `${id}a`, ATTACKER_ADDRESS],
      ]) {
        ip(['-n', namespace, 'addr', 'add', `${address}/${PREFIX_LENGTH}`, 'dev', link]);
        ip(['-n', namespace, 'link', 'set', link, 'up']);
        ip(['-n', namespace, 'link', 'set', 'lo', 'up']);
      }
    } catch (error) {
      host.removeNamespaces();
      throw error;
    }
    return host;
  }

  /** Runs a command on the daemon host; it is stopped by close(). */
  spawnOnDaemonHost(command: string, args: readonly string[]): ChildProcess {
    return this.spawnIn(this.daemonNamespace, command, args);
  }

  /** Runs a command on the attacker host (a load generator, a client of your own); it is stopped by close(). */
  spawnOnAttackerHost(command: string, args: readonly string[]): ChildProcess {
    return this.spawnIn(this.attackerNamespace, command, args);
  }

  private spawnIn(namespace: string, command: string, args: readonly string[]): ChildProcess {
    const child = spawn('ip', ['netns', 'exec', namespace, command, ...args], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.processes.add(child);
    child.once('exit', () => this.processes.delete(child));
    return child;
  }

  /** Writes a file the daemon can read (config, web config), returning its path. */
  file(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  /**
   * Starts the built daemon (dist/main.js) on the daemon host, on `:port` (every address), with
   * `config` as its config file, and waits until it listens.
   */
  async startDaemon(options: { config: string; port: number; flags?: readonly string[] }): Promise<HostDaemon> {
    const configFile = this.file(`config-${options.port}.yaml`, options.config);
    const child = this.spawnOnDaemonHost(process.execPath, [
      MAIN,
      `--config.file=${configFile}`,
      `--web.listen-address=:${options.port}`,
      ...(options.flags ?? []),
    ]);
    const logs: Array<Record<string, unknown>> = [];
    const output: string[] = [];
    // The daemon logs on stderr, as exporters do; either stream is read line by line.
    const readLines = (stream: NodeJS.ReadableStream | null) => {
      let pending = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (pending + chunk.toString('utf8')).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          output.push(line);
          try {
            logs.push(JSON.parse(line));
          } catch {
            // Not a log line.
          }
        }
      });
    };
    readLines(child.stdout);
    readLines(child.stderr);
    // 'close', not 'exit': the error quotes its output, whose last lines can arrive after the exit.
    let closed = false;
    child.once('close', () => void (closed = true));
    await until(() => {
      if (closed) throw new Error(`the daemon exited before listening:\n${output.join('\n')}`);
      return logs.some((line) => line.msg === 'avaxmon listening');
    }, 30_000);
    return {
      port: options.port,
      process: child,
      logs,
      logged: (message) => logs.filter((line) => line.msg === message),
      stop: () => stop(child),
    };
  }

  /** Sends requests from the attacker host to `port` on the daemon's address, one after another. */
  fromAttacker(port: number, requests: readonly RawRequest[]): Promise<RawResponse[]> {
    return this.send(this.attackerNamespace, DAEMON_ADDRESS, port, requests);
  }

  /** Sends requests from the daemon host itself to its loopback address: the operator, a sidecar. */
  fromDaemonHost(port: number, requests: readonly RawRequest[]): Promise<RawResponse[]> {
    return this.send(this.daemonNamespace, '127.0.0.1', port, requests);
  }

  private async send(namespace: string, host: string, port: number, requests: readonly RawRequest[]): Promise<RawResponse[]> {
    const child = this.spawnIn(namespace, process.execPath, [CLIENT]);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    const code = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.stdin?.end(JSON.stringify({ host, port, requests }));
    if ((await code) !== 0) throw new Error(`the HTTP client in ${namespace} failed: ${Buffer.concat(err).toString('utf8')}`);
    return JSON.parse(Buffer.concat(out).toString('utf8')) as RawResponse[];
  }

  async close(): Promise<void> {
    await Promise.all([...this.processes].map(stop));
    this.removeNamespaces();
  }

  private removeNamespaces(): void {
    // Deleting a namespace deletes its end of the veth pair, and with it the other end.
    for (const namespace of [this.daemonNamespace, this.attackerNamespace]) spawnSync('ip', ['netns', 'del', namespace]);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
