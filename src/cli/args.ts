import { hostname } from 'node:os';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { closest } from '../config/did-you-mean.js';
import { LOG_LEVELS, type LogFormat, type LogLevel } from '../runtime/log.js';
import type { ControlPlaneOptions } from '../server/write-guard.js';

export const DEFAULT_LISTEN_ADDRESS = ':9683';
/** Prometheus' own default: enough for scrapers, browsers and a rules engine, not for a flood of idle sockets. */
export const DEFAULT_MAX_CONNECTIONS = 512;

export interface CliOptions {
  readonly command: 'run' | 'init' | 'check-config' | 'simulate' | 'test-alert' | 'collect' | 'healthcheck' | 'help' | 'version';
  readonly positionals: string[];
  readonly configFile: string;
  /** The first --web.listen-address: where the healthcheck and the default external URL look. */
  readonly listenAddress: string;
  /** Every --web.listen-address given, in order; the daemon listens on each. */
  readonly listenAddresses: readonly string[];
  readonly webConfigFile?: string;
  readonly externalUrl?: string;
  /** Open connections each listener holds at most, as Prometheus' --web.max-connections; 0: no limit. */
  readonly maxConnections: number;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly values: Record<string, string | boolean | string[] | undefined>;
}

export const USAGE = `usage: avaxmon [command] [flags]

Commands:
  (none)                     run the daemon
  init [FILE]                write a starter config (one local node) to FILE, default config.yaml
  check-config FILE          validate a config file; exit 0 if valid, 2 with one line per bad path
  simulate                   run the built-in AvalancheGo simulator (--port, --scenario, --validators, --peers,
                             --nodes N: N nodes on consecutive ports from --port, --cache-answers:
                             keep answers that do not move with time, and health reports for 30 s
                             as a node does, for a benchmark fleet)
  test-alert --receiver NAME send a test notification through a receiver of --config.file; exit 0 if delivered
  collect [--target NAME]    run every collector of --config.file once, print the metrics; exit 1 if any failed
  healthcheck                GET /-/healthy of the local daemon (its listen address, TLS, auth); for HEALTHCHECK

Flags:
  --config.file=FILE         config file to load (default: config.yaml)
  --web.listen-address=ADDR  address to listen on (default: ${DEFAULT_LISTEN_ADDRESS}); repeat it to listen on several
  --web.config.file=FILE     TLS and basic-auth config in exporter-toolkit format
  --web.external-url=URL     the URL avaxmon is reached at, for links in notifications (default: http://HOSTNAME:PORT/)
  --web.max-connections=N    open connections per listen address at most; past it new ones are closed (default: ${DEFAULT_MAX_CONNECTIONS}; 0: no limit)
  --web.enable-lifecycle     allow POST /-/reload from clients other than loopback and write users
  --web.enable-silences      allow creating and expiring silences from clients other than loopback and write users
  --web.write-users=A,B      basic-auth users (web config) who may change state; default: every user
  --web.allowed-hosts=A,B    host names a browser may use to change state (DNS rebinding guard)
  --shard=INDEX/COUNT        collect only the targets whose name hashes to INDEX of COUNT replicas
  --log.level=LEVEL          debug, info, warn or error (default: info)
  --log.format=FORMAT        json or logfmt (default: json)
  --version                  print the version and exit
  --help                     print this help and exit
`;

export class UsageError extends Error {}

/** node:util's parseArgs over avaxmon's flags; its errors become usage errors, in avaxmon's words. */
function parseArgv(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: FLAGS });
  } catch (error) {
    throw new UsageError(flagProblem(error as Error & { code?: string }));
  }
}

function flagProblem(error: Error & { code?: string }): string {
  const flag = /^Unknown option '([^']+)'/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const meant = closest(flag.replace(/^-+/, ''), Object.keys(FLAGS));
    return `unknown flag ${flag}${meant ? `; did you mean --${meant}?` : ''}`;
  }
  const missing = /^Option '(?:-\w, )?(--[^\s']+) <value>' argument missing/.exec(error.message)?.[1];
  if (missing) return `${missing} needs a value: ${missing}=VALUE`;
  return error.message;
}

const FLAGS = {
  'config.file': { type: 'string', default: 'config.yaml' },
  'web.listen-address': { type: 'string', multiple: true, default: [DEFAULT_LISTEN_ADDRESS] },
  'web.config.file': { type: 'string' },
  'web.external-url': { type: 'string' },
  'web.max-connections': { type: 'string', default: String(DEFAULT_MAX_CONNECTIONS) },
  'web.enable-lifecycle': { type: 'boolean' },
  'web.enable-silences': { type: 'boolean' },
  'web.write-users': { type: 'string' },
  'web.allowed-hosts': { type: 'string' },
  'log.level': { type: 'string', default: 'info' },
  'log.format': { type: 'string', default: 'json' },
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  port: { type: 'string' },
  host: { type: 'string' },
  scenario: { type: 'string' },
  validators: { type: 'string' },
  peers: { type: 'string' },
  receiver: { type: 'string' },
  target: { type: 'string' },
  nodes: { type: 'string' },
  'cache-answers': { type: 'boolean' },
  shard: { type: 'string' },
} satisfies ParseArgsOptionsConfig;

export function parseCli(argv: string[]): CliOptions {
  const { values, positionals } = parseArgv(argv);
  const logLevel = values['log.level'] as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new UsageError(`--log.level must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = values['log.format'] as LogFormat;
  if (logFormat !== 'json' && logFormat !== 'logfmt') throw new UsageError('--log.format must be json or logfmt');
  return {
    command: values.help ? 'help' : values.version ? 'version' : commandOf(positionals[0]),
    positionals: positionals.slice(1),
    configFile: values['config.file']!,
    listenAddress: values['web.listen-address']![0],
    listenAddresses: values['web.listen-address']!,
    webConfigFile: values['web.config.file'],
    externalUrl: values['web.external-url'],
    maxConnections: parseMaxConnections(values['web.max-connections']!),
    logLevel,
    logFormat,
    values,
  };
}

function commandOf(word: string | undefined): CliOptions['command'] {
  if (word === undefined) return 'run';
  const commands = ['init', 'check-config', 'simulate', 'test-alert', 'collect', 'healthcheck'] as const;
  if ((commands as readonly string[]).includes(word)) return word as (typeof commands)[number];
  const meant = closest(word, commands);
  throw new UsageError(`unknown command "${word}"${meant ? `; did you mean ${meant}?` : ''}`);
}

/** The control-plane flags (see server/write-guard.ts). */
export function controlPlaneOptions(values: CliOptions['values']): ControlPlaneOptions {
  const list = (value: unknown) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : undefined;
  return {
    enableLifecycle: values['web.enable-lifecycle'] === true,
    enableSilences: values['web.enable-silences'] === true,
    writeUsers: list(values['web.write-users']),
    allowedHosts: list(values['web.allowed-hosts']),
  };
}

function parseMaxConnections(value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--web.max-connections must be a whole number (0: no limit), got "${value}"`);
  return Number(value);
}

/** Parses `--shard=INDEX/COUNT` (INDEX from 0): e.g. "2/3" is the third of three replicas. */
export function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index >= count) throw new UsageError(`--shard must be INDEX/COUNT with 0 <= INDEX < COUNT, got "${value}"`);
  return { index, count };
}

/** Prometheus' default --web.external-url: this host's name and the listening port. */
export function defaultExternalUrl(host: string, port: number, https: boolean): string {
  const name = host === '' || host === '0.0.0.0' || host === '::' ? hostname() : host.includes(':') ? `[${host}]` : host;
  return `${https ? 'https' : 'http'}://${name}:${port}/`;
}

/** Parses "host:port", ":port" (host "": every address) or "[::1]:port" as Prometheus' --web.listen-address does. */
export function parseListenAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(address);
  if (!match) throw new UsageError(`--web.listen-address must be HOST:PORT, got "${address}"`);
  return { host: match[1] ?? match[2], port: Number(match[3]) };
}
